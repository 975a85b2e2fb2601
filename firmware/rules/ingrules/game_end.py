"""How a game leaves play: the phases after it (the pause, the end), the dead stones taken away
during the pause and put back, a dispute that resumes play, the players' agreement that ends it
for the count, and the ends without a count (resignation, loss on time, forfeit, void). A part
of `Game` (game.py), which enters the pause after the ruleset's passes and calls these.
"""

from .board import BLACK, EMPTY, WHITE, IllegalMove, color_name

# Phases.
PLAY = "play"
PAUSED = "paused"
ENDED = "ended"


class GameEnd:
    """The pause and the end of a Game (a mixin: uses the game's `board`, `phase`, `dead`,
    `prisoners`, `disputes`, `plies`)."""

    def remove_dead(self, p):
        """During the pause: take the chain at p away as dead (returns its points)."""
        if self.phase != PAUSED:
            raise IllegalMove("not-paused", "dead stones are removed only during the pause")
        color = self.board.get(p)
        if color not in (BLACK, WHITE):
            raise IllegalMove("occupied", "there is no stone at %s" % self.board.name(p))
        chain = self.board.chain(p)
        for q in chain:
            self.board.set(q, EMPTY)
            self.dead.append((q, color))
        # AGA Rule 9: dead stones are "removed from the board as prisoners of the player who
        # could capture" (territory counting counts them).
        self.prisoners[3 - color] += len(chain)
        return chain

    def restore_dead(self):
        for q, color in self.dead:
            self.board.set(q, color)
            self.prisoners[3 - color] -= 1
        self.dead = []

    def restore_dead_chain(self, p):
        """Put back the removed stones connected to p (a stone taken off by mistake during the
        pause, put back on its point). Returns their points, [] if p was not removed."""
        removed = {}
        for q, color in self.dead:
            removed[q] = color
        if p not in removed:
            return []
        color = removed[p]
        chain = [p]
        i = 0
        while i < len(chain):
            for n in self.board.neighbours(chain[i]):
                if removed.get(n) == color and n not in chain:
                    chain.append(n)
            i += 1
        for q in chain:
            self.board.set(q, color)
            self.prisoners[3 - color] -= 1
        self.dead = [d for d in self.dead if d[0] not in chain]
        return chain

    def dispute(self):
        """Disagreement about life and death: restore the removed stones and resume play with
        the player to move (the opponent of the last passer)."""
        if self.phase != PAUSED:
            raise IllegalMove("not-paused", "play is not paused")
        self.restore_dead()
        self.phase = PLAY
        self.disputed = True
        self.consecutive_passes = 0
        if len(self.plies) not in self.disputes:
            self.disputes.append(len(self.plies))  # replayed by undo (it is not a ply)

    def agree(self):
        """Both players accept the dead stones as removed: the game ends and is counted."""
        if self.phase != PAUSED:
            raise IllegalMove("not-paused", "agreement is possible only while play is paused")
        self._end_by_count()

    def resign(self, color):
        if self.phase == ENDED:
            raise IllegalMove("game-over", "the game is over")
        self._end("%s+R" % color_name(3 - color), "resign")

    def lose_on_time(self, color):
        if self.phase != ENDED:
            self._end("%s+T" % color_name(3 - color), "time")

    def forfeit(self, color):
        """Any other forfeit the rules define (Ing 1996 Rule 10: late by more than 1/6)."""
        if self.phase != ENDED:
            self._end("%s+F" % color_name(3 - color), "forfeit")

    def void(self):
        """Both players forfeit (neither appeared within the time limit, Ing 1991 Art. 8
        "Forfeiture" (1)): no result, SGF RE[Void]."""
        if self.phase != ENDED:
            self._end("Void", "forfeit")

    def _end_by_count(self):
        self.phase = ENDED
        self.end_reason = "count"
        self.result = None  # set by the scorer (score.py / tracker) from the final position

    def _end(self, result, reason):
        self.phase = ENDED
        self.result = result
        self.end_reason = reason
