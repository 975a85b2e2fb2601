"""The game state machine: plays, passes, pause, dead-stone removal, dispute, resume, end,
resignation, handicap, and retraction (undo) — all as the ruleset (rulesets.py) says.

Phases: PLAY → (passes_to_pause consecutive passes) → PAUSED, where dead stones are taken
away; from PAUSED: `agree()` or further passes up to `passes_to_end` → ENDED (counted); a board
play or `dispute()` → PLAY again with the removed stones restored. `resign()` ends at once.

Every accepted move is a `Ply` (colour, point or PASS, captured, self_removed, kind). The
game keeps the situation key after every ply (`keys`: the board hash, with the "White to play"
key mixed in when White moves next; index 0 is the starting position), which the ko rule
(ko.py) uses; `position(i)` rebuilds the exact position after i plies so that every
repetition is confirmed by comparison.
"""

import sys
from collections import namedtuple

from . import chunked, const, ply_store
from . import rulesets as rs
from .board import (
    BLACK,
    EMPTY,
    OCCUPIED,
    OK,  # noqa: F401 (re-exported)
    SUICIDE,
    WHITE,
    WHITE_TO_PLAY_KEY,
    Board,
    color_name,
)
from .chunked import KeyLog
from .ko import PASS, KoRule, situation_key
from .ply_store import _TUPLE_NEW, PlyStore

Ply = namedtuple("Ply", ("color", "point", "captured", "self_removed", "kind"))

# Ply kinds.
MOVE = const(0)
PASS_PLAY = const(1)
MANDATORY_PASS = const(2)  # White's handicap pass plays (Ing 1991 Art. 6)
ILLEGAL_PASS = const(3)  # an illegal move treated as a pass (AGA Rule 8)
# A bound on komi, far beyond any the seeds give (Ing 8, AGA 7.5): a board of 361 points
# cannot be worth more, and it keeps komi * 2 a small number.
MAX_KOMI = const(1000)

# board.BLACK and board.WHITE_TO_PLAY_KEY as constants of this module, for play(): an
# imported name is a global looked up at every use (bench: mcu_move_us).
_BLACK = const(1)
_WHITE_KEY = const(218923576)
if _BLACK != BLACK or _WHITE_KEY != WHITE_TO_PLAY_KEY:
    raise ImportError("game.py and board.py disagree on BLACK or WHITE_TO_PLAY_KEY")
# The layout of a PlyStore and its KeyLog (ply_store.py, chunked.py), for play()'s quiet move.
_CHUNK = const(64)
_KEY_MASK = const(2047)
_START_SHIFT = const(13)
_COLOUR_SHIFT = const(9)
if (_CHUNK, _CHUNK, _KEY_MASK, _START_SHIFT, _COLOUR_SHIFT) != (
    ply_store.PER_CHUNK,
    chunked.CHUNK,
    chunked.FILTER_BYTES * 8 - 1,
    ply_store.START_SHIFT,
    ply_store.COLOUR_SHIFT,
):
    raise ImportError("game.py and ply_store.py disagree on the ply store's layout")

# Phases.
PLAY = "play"
PAUSED = "paused"
ENDED = "ended"

_NONE = ()


class IllegalMove(ValueError):
    """A move the rules forbid; `reason` is one of occupied, suicide, ko, superko, recycle,
    not-your-turn, game-over, not-paused."""

    def __init__(self, reason, text):
        super().__init__(text)
        self.reason = reason


class _PauseAndEnd:
    """The pause and the end of a game, a part of Game (below): dead stones taken away during
    the pause and put back, a dispute resuming play, agreement, what passes and a completed
    illegal move lead to, and the results by resignation, time, forfeit and void. Its state
    is the game's (`phase`, `board`, `dead`, `disputes`, `prisoners`, `result`, `end_reason`,
    made by Game._reset): a class of this module, not a module of its own, which would cost
    the RP2040's heap 0.5 KB."""

    # -- pause, dead stones, agreement

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

    def commit_illegal(self, color, reason):
        """The player completed an illegal move (pressed the clock): apply the ruleset's
        consequence. Returns what happened: "retracted", "pass" or "forfeit"."""
        policy = self.rules.illegal
        if policy == rs.ILLEGAL_AS_PASS and color == self.to_play and self.phase != ENDED:
            # AGA Rule 8: take it back, it is treated as a pass, a pass stone is exchanged.
            self.pass_move(color, ILLEGAL_PASS)
            return "pass"
        if policy == rs.ILLEGAL_FORFEIT_KO and reason in ("ko", "not-your-turn"):
            # Ing 1996 "Penalized mistakes": two consecutive moves or a ko recapture without an
            # intervening play forfeits the game.
            self._end("%s+F" % color_name(3 - color), "forfeit")
            return "forfeit"
        return "retracted"

    # -- a play or a pass during the pause

    def _leave_pause(self, color):
        # A board play during the pause disputes the removals and resumes play (Ing 1991
        # Art. 1 "If there is disagreement about life and death, play can resume"; Simplified
        # Ing: continue "as if there had been no removals"). Returns what _back_to_pause needs.
        if self.phase != PAUSED or color != self.to_play:
            return None
        paused = (list(self.dead), self.disputed, self.consecutive_passes, list(self.disputes))
        self.dispute()
        return paused

    def _back_to_pause(self, paused):
        # The pause goes on exactly as it was (removals included).
        dead, self.disputed, self.consecutive_passes, self.disputes = paused
        for q, color in dead:
            self.board.set(q, EMPTY)
            self.prisoners[3 - color] += 1
        self.dead = dead
        self.phase = PAUSED

    def _after_pass(self, color):
        rules = self.rules
        if rules.white_passes_last and color != WHITE:
            return  # AGA Rule 11: White must make the last move
        n = self.consecutive_passes
        if self.phase == PLAY:
            if n >= rules.passes_to_pause:
                if rules.ends_at_pause or (self.disputed and not rules.pause_again_after_dispute):
                    self._end_by_count()
                else:
                    self.phase = PAUSED
        elif self.phase == PAUSED and n >= rules.passes_to_end:
            # Ing 1991 Art. 1: "After the dead stones have been taken away, both players pass
            # again and play ends" (four consecutive pass plays, 1991 term 19).
            self._end_by_count()


class Game(_PauseAndEnd):
    """One game under one ruleset, from the empty board (or handicap setup) to its result."""

    def __init__(
        self,
        size=19,
        rules="ing1991",
        komi=None,
        handicap=0,
        handicap_style=None,
        compensation=None,
    ):
        self.rules = rules if isinstance(rules, rs.Ruleset) else rs.get(rules)
        Board(size)  # validates the size
        self.size = size
        if not isinstance(handicap, int) or handicap < 0 or handicap > 9 * 9:
            raise ValueError("handicap must be a whole number of stones, not %r" % (handicap,))
        self.handicap = handicap
        style = handicap_style or self.rules.handicap_style
        if style not in (rs.HANDICAP_ING_PLAYS, rs.HANDICAP_FIXED, rs.HANDICAP_FREE):
            raise ValueError("unknown handicap style %r" % (style,))
        self.handicap_style = style
        if komi is None:
            komi = self.rules.komi_handicap if handicap else self.rules.komi
        if isinstance(komi, bool) or not isinstance(komi, (int, float)):
            raise ValueError("komi must be a number, not %r" % (komi,))
        # NaN fails both comparisons; infinities and 1e308 are out of range before any
        # arithmetic (int(inf) would raise OverflowError, not a clear ValueError).
        if not -MAX_KOMI <= komi <= MAX_KOMI:
            raise ValueError("komi must be within +-%d points, not %r" % (MAX_KOMI, komi))
        if komi * 2 != int(komi * 2):
            raise ValueError("komi must be a whole or half number, not %r" % (komi,))
        self.komi = komi
        # How a handicap is compensated at the count: "rules" (the ruleset's own), or "kss"
        # (Kim/Simon/Straus Part 2 "Counting" 5: "White must receive N-point compensation ...
        # In handicap games, White wins ties"); see rulesets.COMPENSATIONS.
        compensation = compensation or rs.COMPENSATION_RULES
        if compensation not in rs.COMPENSATIONS:
            raise ValueError(
                "unknown handicap compensation %r (one of %s)"
                % (compensation, ", ".join(rs.COMPENSATIONS))
            )
        self.compensation = compensation
        self.first_to_play = 0  # set by set_to_play (SGF PL); 0 = as the handicap says
        self._reset()

    def _reset(self):
        self.board = Board(self.size)
        self.setup = []  # (point, colour) placed before play: fixed/free handicap stones
        # Per-ply records in fixed chunks: no block that grows with the game, and the plies as
        # small ints and bytes (ply_store.py), no object per ply kept all game long.
        self.plies = PlyStore(Ply, PASS)
        self.mandatory_passes = 0  # plies of kind MANDATORY_PASS so far
        self.to_play = BLACK
        self.phase = PLAY
        self.consecutive_passes = 0
        self.disputed = False
        self.dead = []  # points of stones taken away as dead during the pause
        self.disputes = []  # ply counts at which play resumed from a pause by dispute
        self.prisoners = [0, 0, 0]  # stones captured BY each colour (incl. AGA pass stones)
        self.result = None  # SGF RE: "B+3", "W+R", "Draw", ...
        self.end_reason = None  # count, resign, time, forfeit
        # Ing handicap plays: Black's board plays while White still owes mandatory passes.
        self.mandatory_passes_left = 0
        # Free handicap: stones Black still places before White's first move.
        self.free_stones_left = 0
        if self.handicap:
            self._start_handicap()
        self.keys = KeyLog((situation_key(self.board.hash, self.to_play),))
        self.plies.keys = self.keys  # play() adds a ply and its key in one call
        self.ko = KoRule(self.rules.ko, self)
        self._ing = self.rules.ko == rs.KO_ING
        self._suicide = self.rules.suicide

    # -- handicap

    def _start_handicap(self):
        h = self.handicap
        if self.handicap_style == rs.HANDICAP_ING_PLAYS:
            # Ing 1991 Art. 6: "In a one-play handicap ... Black makes a board play anywhere,
            # White makes a mandatory pass play, then Black makes another board play" - an
            # h-play handicap is h mandatory White passes (1991: "The size of the handicap is
            # one less than the number (N) of initial board plays by Black"; 1996 Rule 3: "white
            # makes mandatory passes, known as handicap plays").
            self.mandatory_passes_left = h
            return
        if h < 2:
            return  # AGA Rule 4: a one-stone handicap is Black moving first with 1/2 komi
        if self.handicap_style == rs.HANDICAP_FIXED:
            for col, row in rs.fixed_handicap_points(self.size, h):
                p = self.board.index(col, row)
                self.board.set(p, BLACK)
                self.setup.append((p, BLACK))
            self.to_play = WHITE
        else:
            self.free_stones_left = h

    def add_setup(self, p, color):
        """A setup stone (SGF AB/AW/AE) before the first move; EMPTY clears a point."""
        if self.plies:
            raise ValueError("setup stones are only possible before the first move")
        self.board.set(p, color)
        self.setup = [s for s in self.setup if s[0] != p]
        if color != EMPTY:
            self.setup.append((p, color))
        self._restart_history()

    def set_to_play(self, color):
        """Who moves first (SGF PL), before the first move."""
        if self.plies:
            raise ValueError("the player to move is set only before the first move")
        if color not in (BLACK, WHITE):
            raise ValueError("colour must be B or W")
        self.to_play = color
        self.first_to_play = color
        self._restart_history()

    def _restart_history(self):
        self.keys[0] = situation_key(self.board.hash, self.to_play)

    def place_handicap_stone(self, p):
        """Free handicap (AGA Rule 4, Ing 'free placement'): Black places one stone."""
        if self.free_stones_left <= 0:
            raise IllegalMove("not-your-turn", "no free handicap stones left to place")
        if self.board.get(p) != EMPTY:
            raise IllegalMove("occupied", "%s is already occupied" % self.board.name(p))
        self.board.set(p, BLACK)
        self.setup.append((p, BLACK))
        self.free_stones_left -= 1
        if self.free_stones_left == 0:
            self.to_play = WHITE
        self._restart_history()

    # -- positions

    def position(self, i):
        """The cells (bytes) after the first i plies, rebuilt from the start."""
        board = Board(self.size)
        for p, color in self.setup:
            board.set(p, color)
        suicide = self.rules.suicide
        plies = self.plies
        for k in range(i):
            ply = plies[k]
            if ply.point != PASS:
                board.place(ply.point, ply.color, suicide)
        return bytes(board.cells)

    def _move_number(self):
        return len(self.plies)

    def _moves_made(self):
        """Plies other than White's mandatory handicap passes (the numbers events give)."""
        return len(self.plies) - self.mandatory_passes

    if sys.implementation.name == "micropython":
        # move_number and moves_made computed by __getattr__ (called only for names the game
        # does not hold), not as properties: on MicroPython a class with a property looks for
        # one at every store of an attribute, and each play stores the game's (bench:
        # mcu_move_us, 642 -> 595 us). CPython keeps the properties: there __getattr__ would
        # slow every attribute read of the game.
        def __getattr__(self, name):
            if name == "move_number":
                return self._move_number()
            if name == "moves_made":
                return self._moves_made()
            raise AttributeError(name)

    else:
        move_number = property(_move_number)
        moves_made = property(_moves_made)

    # -- legality

    def legality(self, color, p):
        """None if `color` may play at p now, else the reason (nothing changes). During the
        pause the play is judged as play() would make it: with the removed stones back."""
        paused = self._leave_pause(color)
        reason = self._try(color, p)
        if reason is None:
            self.board.undo()
        if paused is not None:
            self._back_to_pause(paused)
        return reason

    def _try(self, color, p):
        # Make the play on the board and ask the ko rule; on a reason, the board is restored.
        if self.phase == ENDED:
            return "game-over"
        if self.free_stones_left:
            return "not-your-turn"
        if color != self.to_play:
            return "not-your-turn"
        result = self.board.place(p, color, self.rules.suicide)
        if result == OCCUPIED:
            return "occupied"
        if result == SUICIDE:
            return "suicide"
        reason = self.ko.check(color, p)
        if reason is not None:
            self.board.undo()
        return reason

    def play(self, color, p):
        """Play a stone; returns the Ply. IllegalMove (game unchanged) if forbidden."""
        # Speed (bench: rules): the usual play - in turn, during play, accepted - on one path
        # with the checks of _try and the bookkeeping of _record inline; anything else (and
        # every refusal but the ko rule's) goes the general way, _play.
        if self.phase != "play" or color != self.to_play or self.free_stones_left:  # PLAY
            return self._play(color, p)
        board = self.board
        if board.place(p, color, self._suicide):  # not OK (0): nothing changed
            return self._play(color, p)  # refused there, with its reason
        ko = self.ko
        armed = ko.armed
        if armed:
            reason = ko.check(color, p)
            if reason is not None:
                board.undo()
                raise IllegalMove(reason, self._explain(reason, color, p))
        captured = board.captured
        removed = board.self_removed
        if captured:
            captured = tuple(captured)
            self.prisoners[color] += len(captured)
        if removed:
            removed = tuple(removed)
            self.prisoners[3 - color] += len(removed)
        # The ply and the situation key after it (White is to play after a Black play).
        h = board.hash
        key = h ^ _WHITE_KEY if color == _BLACK else h
        if captured or removed:
            ply = self.plies.add(color, p, captured, removed, MOVE, key)
            seen = self.keys.seen_before
        else:
            # PlyStore.add for a quiet move (most of them), inline: on the RP2040 a call of a
            # function with that many locals takes its frame from the heap, and in a game's
            # heap finding the block cost ~15 % of a move (bench: mcu_move_us). The key into
            # the key log's filter and slots, the record (no stones) into the records.
            keys = self.keys
            bits = keys.bits
            i = (key & _KEY_MASK) >> 3
            mask = 1 << (key & 7)
            old = bits[i]
            seen = keys.seen_before = old & mask
            bits[i] = old | mask
            n = keys.n
            at = n % _CHUNK
            chunks = keys.chunks
            if not at and n // _CHUNK == len(chunks):
                chunks.append([None] * _CHUNK)
            chunks[n // _CHUNK][at] = key
            keys.n = n + 1
            plies = self.plies
            n = plies.n
            at = n % _CHUNK
            records = plies.records
            if not at and n // _CHUNK == len(records):
                records.append([0] * _CHUNK)
            records[n // _CHUNK][at] = (
                (plies.stone_n << _START_SHIFT) | ((color - 1) << _COLOUR_SHIFT) | (p + 1)
            )  # kind MOVE (0)
            plies.n = n + 1
            if _TUPLE_NEW is None:
                ply = Ply(color, p, captured, removed, MOVE)
            else:
                ply = _TUPLE_NEW(Ply, (color, p, captured, removed, MOVE))
            plies._last = ply
        self.to_play = 3 - color
        if self.consecutive_passes:
            self.consecutive_passes = 0
        # (Ing: a ko run makes the rule armed; a quiet move with neither reads no more.)
        if (captured or seen or armed) and self._ing:
            ko.played(color, p, captured, removed)  # else nothing for it to change
        if self.mandatory_passes_left and color == _BLACK:
            # Ing handicap plays: White's mandatory pass follows at once.
            self.mandatory_passes_left -= 1
            self._record(Ply(WHITE, PASS, _NONE, _NONE, MANDATORY_PASS))
        return ply

    def _play(self, color, p):
        if self.phase == PAUSED and color != self.to_play:
            raise IllegalMove("not-your-turn", "it is %s's turn" % color_name(self.to_play))
        paused = self._leave_pause(color)
        reason = self._try(color, p)
        if reason is not None:
            if paused is not None:
                self._back_to_pause(paused)
            raise IllegalMove(reason, self._explain(reason, color, p))
        board = self.board
        # Speed (bench: rules): a quiet move builds no tuples and changes no counts.
        captured = tuple(board.captured) if board.captured else _NONE
        removed = tuple(board.self_removed) if board.self_removed else _NONE
        ply = Ply(color, p, captured, removed, MOVE)
        if captured:
            self.prisoners[color] += len(captured)
        if removed:
            self.prisoners[3 - color] += len(removed)
        self._record(ply)
        if self.mandatory_passes_left and color == BLACK:
            # Ing handicap plays: White's mandatory pass follows at once.
            self.mandatory_passes_left -= 1
            self._record(Ply(WHITE, PASS, _NONE, _NONE, MANDATORY_PASS))
        return ply

    def _explain(self, reason, color, p):
        where = self.board.name(p)
        if reason == "not-your-turn":
            return "%s played at %s but it is %s's turn" % (
                color_name(color),
                where,
                color_name(self.to_play),
            )
        texts = {
            "occupied": "%s is already occupied",
            "suicide": "a play at %s would remove only the played stone (suicide)",
            "ko": "a play at %s would remove a hot stone (ko)",
            "superko": "a play at %s would repeat an earlier position (superko)",
            "recycle": "a play at %s would start the same cycle again (recycling)",
            "game-over": "the game is over (%s)",
        }
        return texts.get(reason, reason + " at %s") % where

    def _record(self, ply):
        self.plies.append(ply)
        if ply.kind == MANDATORY_PASS:
            self.mandatory_passes += 1
        self.to_play = 3 - ply.color
        if ply.point == PASS:
            self.consecutive_passes += 1
        else:
            self.consecutive_passes = 0
        h = self.board.hash
        self.keys.append(h ^ WHITE_TO_PLAY_KEY if self.to_play == WHITE else h)  # situation_key
        self.ko.played(ply.color, ply.point, ply.captured, ply.self_removed)

    def pass_move(self, color, kind=PASS_PLAY):
        """A pass play (Ing: a pass is a move). Returns the Ply; may pause or end the game."""
        if self.phase == ENDED:
            raise IllegalMove("game-over", "the game is over")
        if color != self.to_play or self.free_stones_left:
            raise IllegalMove("not-your-turn", "it is %s's turn" % color_name(self.to_play))
        if self.phase == PAUSED and not self.rules.pause_passes_confirm:
            # Simplified Ing: without agreement, "alternate moving continues as if there had
            # been no removals"; a pass here is such a move.
            self.dispute()
        ply = Ply(color, PASS, _NONE, _NONE, kind)
        if self.rules.pass_stones:
            self.prisoners[3 - color] += 1  # AGA Rule 7: hand the opponent a pass stone
        self._record(ply)
        self._after_pass(color)
        return ply

    # -- retraction

    def undo(self):
        """Retract the last move (an accepted retraction): the game is rebuilt without it
        (with White's mandatory handicap pass taken back together with Black's play)."""
        plies = self.plies
        if self.phase == ENDED:
            raise IllegalMove("game-over", "the game is over (%s)" % self.result)
        if not plies or (len(plies) == 1 and plies[0].kind == MANDATORY_PASS):
            raise IllegalMove("not-your-turn", "there is no move to take back")
        keep = len(plies) - 1
        if plies[-1].kind == MANDATORY_PASS:
            keep -= 1
        self._rebuild(plies, keep)

    def _rebuild(self, plies, keep):
        # The first `keep` of `plies` (the old record: _reset() starts a new one).
        setup = self.setup
        disputes = self.disputes
        self._reset()
        for p, color in setup:
            if self.free_stones_left and color == BLACK:
                self.place_handicap_stone(p)
            else:
                self.add_setup(p, color)
        if self.first_to_play:
            self.set_to_play(self.first_to_play)
        for k in range(keep):
            ply = plies[k]
            if self.phase == PAUSED and len(self.plies) in disputes:
                self.dispute()  # a dispute by the button, at this point of the game
            if ply.kind == MANDATORY_PASS:
                continue  # re-inserted by play()
            if ply.point == PASS:
                self.pass_move(ply.color, ply.kind)
            else:
                self.play(ply.color, ply.point)
        if self.phase == PAUSED and len(self.plies) in disputes:
            self.dispute()


__all__ = ("Game", "Ply", "IllegalMove", "PASS", "OK")
