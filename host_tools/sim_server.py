"""The virtual board, live: a person (or a script) places and lifts stones, presses the clock
and the buttons; the firmware's tracker runs behind it exactly as on the device.

`LiveBoard(config)` is the physical set in software: the grid (every change becomes a scan
fed to core/tracker.Tracker with the board time), both bowls on their load cells
(host_tools/bowl_model.py, read every 250 ms), the clock keys and buttons. Everything is also
written to a session log (core/session.SessionWriter), so `ingboard track` on that log
reproduces the same events. Times are board milliseconds, given by the caller (`advance`), so
a test or a script runs at any speed and the web page runs on the wall clock.
"""

import io

from ingboard.core.board import BLACK, WHITE, Board, stones_per_colour
from ingboard.core.session import SessionWriter, check_config
from ingboard.core.tracker import Tracker

from host_tools.bowl_model import BowlModel
from host_tools.errors import InputError

BOWL_PERIOD_MS = 250
_COLOURS = {"B": BLACK, "W": WHITE}


class LiveBoard:
    """The physical set in software, with the firmware's tracker behind it."""

    def __init__(self, config, seed=0):
        check_config(config)
        self.config = config
        self.size = config["size"]
        self.geometry = Board(self.size)
        self.cells = bytearray(len(self.geometry.cells))  # what lies on the board
        self.tracker = Tracker(config)
        self.log = io.StringIO()
        self.writer = SessionWriter(self.log)
        self.writer.config(0, config)
        stones = stones_per_colour(self.size)
        ideal = {"noise_g": 0.0, "creep_g": 0.0, "drift_g": 0.0, "settle": False}
        self.bowls = {c: BowlModel(seed + c, stones=stones, **ideal) for c in (BLACK, WHITE)}
        self.t = 0
        self.next_reading = 0
        self.events = []
        self._scan()

    # -- time ---------------------------------------------------------------------------------

    def advance(self, t):
        """Board time moves on to t: bowl readings and tracker deadlines on the way."""
        out = []
        while True:
            due = self.tracker.next_deadline()
            step = self.next_reading
            if due is not None and due <= t and due <= step:
                self.t = max(self.t, due)
                out += self._record(self.tracker.tick(self.t))
                continue
            if step <= t:
                self.t = max(self.t, step)
                for c in (BLACK, WHITE):
                    grams = round(self.bowls[c].reading(self.t), 1)
                    self.writer.bowl(self.t, c, grams)
                    out += self._record(self.tracker.bowl(self.t, c, grams))
                self.next_reading = step + BOWL_PERIOD_MS
                continue
            break
        self.t = max(self.t, t)
        return out

    def wait(self, ms):
        return self.advance(self.t + ms)

    # -- what the people do ---------------------------------------------------------------------

    def point(self, name):
        try:
            return self.geometry.parse(name)
        except ValueError as exc:
            raise InputError(str(exc)) from None

    def stone(self, name):
        return ".BW"[self.cells[self.point(name)]]

    def place(self, name, color):
        """A stone of `color` ("B"/"W") from its bowl onto an empty point."""
        p = self.point(name)
        c = _COLOURS[color]
        if self.cells[p]:
            raise InputError("%s is not empty" % name)
        try:
            self.bowls[c].take(self.t)
        except IndexError:
            raise InputError(
                "the %s bowl is empty" % ("black" if c == BLACK else "white")
            ) from None
        self.cells[p] = c
        return self._scan()

    def lift(self, name):
        """The stone on a point goes back into its own bowl."""
        p = self.point(name)
        c = self.cells[p]
        if not c:
            raise InputError("there is no stone on %s" % name)
        self.cells[p] = 0
        self.bowls[c].put(1, self.t)
        return self._scan()

    def press(self, color):
        self.writer.press(self.t, _COLOURS[color])
        return self._record(self.tracker.press(self.t, _COLOURS[color]))

    def button(self, name):
        self.writer.button(self.t, name)
        return self._record(self.tracker.button(self.t, name))

    # -- what the board sees ------------------------------------------------------------------

    def rows(self):
        size = self.size
        stride = self.geometry.stride
        out = []
        for row in range(size - 1, -1, -1):
            base = (row + 1) * stride + 1
            out.append("".join(".BW"[self.cells[base + col]] for col in range(size)))
        return out

    def _scan(self):
        rows = self.rows()
        if self.writer.scan(self.t, rows):
            return self._record(self.tracker.scan(self.t, rows))
        return []

    def _record(self, events):
        self.events.extend(events)
        return events

    def session_log(self):
        return self.log.getvalue()

    def state(self):
        tracker = self.tracker
        game = tracker.game
        return {
            "t": self.t,
            "size": self.size,
            "rows": self.rows(),
            "game_rows": game.board.rows(),
            "to_play": "B" if game.to_play == BLACK else "W",
            "phase": game.phase,
            "result": game.result,
            "events": self.events,
            "bowls": {"B": self.bowls[BLACK].count(), "W": self.bowls[WHITE].count()},
            "clock": tracker.clock.state(self.t),
            "plan": tracker.plan,
        }
