"""The chores the virtual board can do for the person (assist mode, the sim's default).

At a physical Ing board the players lift every captured stone, put back what an undo gives
back, and each places their own stones and presses their own clock. Playing alone against an
engine, or just trying the board, those chores get in the way; with
`Assist` on, the virtual board does them as a person would, through the same board (stones
lifted and placed, the clock pressed), so the firmware's tracker sees exactly what it sees at a
real board and the session log stays a real one:

- a stone the person places for the side to play is followed by that side's clock press once
  the stone has lain still for the tracker's settle time (one click = one move);
- stones the game has taken off (captured, or taken back by an undo) are lifted; stones the
  game has and the board lacks (given back by an undo) are put back - in play, never in the
  pause, where missing stones are dead stones being taken off;
- the engine's move (sim_engine.EngineSeat) is placed and its clock pressed; its pass is
  pressed; its resignation is the resign button; in the pause, once the stones it calls dead
  are off, its pass;
- in the pause a click on a stone lifts its whole chain (one click per dead group) and a click
  where a lifted chain lay puts it back.

Without assist (the physical chores mode, for testing the firmware as players use it) the
person does all of that by hand and the page says what is to be done.
"""

from ingrules.board import BLACK, WHITE
from ingrules.game import PAUSED, PLAY

from host_tools.sim_marks import board_marks

# A press this long after the stone was placed: the tracker commits a stone that has been
# stable for its settle time (core/tracker.py SETTLE_MS, 100 ms of board time).
PRESS_AFTER_MS = 150
_NAMES = {BLACK: "B", WHITE: "W"}


class Assist:
    def __init__(self, on=True):
        self.on = on
        self.presses = []  # [(board time due, colour)] presses that follow a placed stone
        self.lifted_chains = []  # [(points, colour)] chains lifted in the pause by one click
        self.engine_placed = None  # (moves, point) the engine move placed last

    def placed(self, board, color):
        """The person placed a stone of `color`; with assist it is a move: press after it."""
        if self.on and color == _NAMES[board.tracker.game.to_play]:
            self.presses.append((board.t + PRESS_AFTER_MS, color))

    def click_stone_in_pause(self, board, name):
        """A click on a stone in the pause: lift its whole chain (True), or False when assist
        is off (the click lifts that one stone, as a hand would)."""
        if not self.on:
            return False
        game = board.tracker.game
        p = board.point(name)
        chain = [q for q in game.board.chain(p)] if game.board.cells[p] else [p]
        names = [game.board.name(q) for q in chain]
        names = [n for n in names if board.stone(n) != "."]
        colour = board.stone(name)
        for n in names:
            board.lift(n)
        self.lifted_chains.append((names, colour))
        return True

    def click_empty_in_pause(self, board, name):
        """A click where a chain lifted in the pause lay puts it back (True), else False."""
        if not self.on:
            return False
        for i, (names, colour) in enumerate(self.lifted_chains):
            if name in names:
                for n in names:
                    if board.stone(n) == ".":
                        board.place(n, colour)
                del self.lifted_chains[i]
                return True
        return False

    def chores(self, board, engine=None):
        """Do what is due at the board's time; returns True when anything was done."""
        if not self.on:
            return False
        tracker = board.tracker
        game = tracker.game
        done = False
        for due, color in list(self.presses):
            if board.t >= due:
                if not _refused(tracker):  # a stone the rules refuse is not pressed for
                    board.press(color)  # (a board that failed raises: the press stays due)
                self.presses.remove((due, color))
                done = True
        if game.phase == PLAY:
            self.lifted_chains = []
            done |= self._tidy(board)
        if engine is not None and game.phase in (PLAY, PAUSED) and not self.presses:
            done |= self._engine(board, engine)
        return done

    def _tidy(self, board):
        game = board.tracker.game
        marks = board_marks(board.rows(), game, board.tracker)
        done = False
        for name in marks["lift"]:
            if marks["why"].get(name) in ("captured", "taken-back"):
                board.lift(name)
                done = True
        if marks["missing"] and not self.presses:
            rows = game.board.rows()
            for name in marks["missing"]:
                col = "ABCDEFGHJKLMNOPQRST".index(name[0])
                row = board.size - int(name[1:])
                board.place(name, rows[row][col])
                done = True
        return done

    def _engine(self, board, engine):
        tracker = board.tracker
        game = tracker.game
        view = engine.view(game)
        color = view["color"]
        if _NAMES[game.to_play] != color:
            return False
        if game.phase == PLAY:
            move = view["move"]
            if move is None:
                return False
            if move == "resign":
                board.button("resign-" + color)
            elif move == "pass":
                board.press(color)
            else:
                if board.stone(move) != ".":
                    return False
                board.place(move, color)
                self.presses.append((board.t + PRESS_AFTER_MS, color))
            return True
        dead = view["dead"]
        if dead is None or any(board.stone(p) != "." for p in dead):
            return False
        board.press(color)  # the stones it calls dead are off: its pass
        return True


_RULE_ALERTS = ("occupied", "suicide", "ko", "superko", "recycle", "wrong-colour", "two-stones")


def _refused(tracker):
    """True while an alert stands on a stone the rules (or the turn) refuse."""
    return any(isinstance(k, tuple) and k[0] in _RULE_ALERTS for k in tracker.active)
