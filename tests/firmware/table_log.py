"""Helpers for tests that play a game by hand on a physical board (shared: CPython and
MicroPython): the players' actions become session-log records, replayed as `ingboard track`
does (the log's text read back), and through the journal with a power cut at chosen records."""

import json

from ingboard.records import journal_replay
from ingboard.records.session_read import read_text
from ingboard.records.session_replay import track
from journal_cases import play

COLUMNS = "ABCDEFGHJKLMNOPQRST"


class Players:
    """Two people at a board: stones put down and lifted, clock presses, buttons, time passing.
    Every change is scanned at once and again every `step` ms while they wait."""

    def __init__(self, config, stones=None, step=40, grid=None):
        # `grid`: the sensors' size when larger than the game's (a small game in the 19x19
        # board's lower-left corner, tracking/region.py); stones keep the full board's names.
        self.config = config
        self.size = grid or config["size"]
        self.stones = dict(stones or {})  # point name -> "B"/"W"/"?" as the sensors read it
        self.step = step
        self.t = 0
        self.lines = ["ingboard-session 1", "0 config " + json.dumps(config)]
        self._scan()

    def rows(self):
        out = []
        for line in range(self.size, 0, -1):
            row = ""
            for col in COLUMNS[: self.size]:
                row += self.stones.get(col + str(line), ".")
            out.append(row)
        return "/".join(out)

    def _scan(self):
        self.lines.append("%d scan %s" % (self.t, self.rows()))

    def put(self, name, ch):
        self.stones[name] = ch
        self.t += self.step
        self._scan()

    def lift(self, *names):
        for name in names:
            self.stones.pop(name, None)
        self.t += self.step
        self._scan()

    def wait(self, ms):
        end = self.t + ms
        while self.t + self.step <= end:
            self.t += self.step
            self._scan()
        self.t = end

    def press(self, color, dt=20):
        self.t += dt
        self.lines.append("%d press %s" % (self.t, color))

    def button(self, name, dt=20):
        self.t += dt
        self.lines.append("%d button %s" % (self.t, name))

    def play(self, name, ch, think=300, lift=()):
        """A calm play: the stone down, still, the prisoners lifted, the press."""
        self.put(name, ch)
        self.wait(think)
        if lift:
            self.lift(*lift)
            self.wait(200)
        self.press(ch)
        self.wait(200)

    def text(self):
        return "\n".join(self.lines) + "\n"

    def records(self):
        return list(read_text(self.text()))


def replay(players):
    """(events, tracker) of the log replayed as `ingboard track` replays it."""
    events = []
    tracker = track(players.records(), events.append)
    return events, tracker


def game_of(tracker):
    """What a record must say: the plies as (colour, point or 'pass'), the result."""
    game = tracker.game
    board = game.board
    plies = []
    for ply in game.plies:
        plies.append((ply.color, "pass" if ply.point < 0 else board.name(ply.point)))
    return plies, game.result


def resumed_games(players, cuts=3):
    """The game after a power cut at `cuts` records spread over the log: the journal up to
    the cut recovered, then the rest of the log played on it. Yields (cut index, tracker)."""
    records = players.records()
    n = len(records)
    picks = []
    for k in range(1, cuts + 1):
        i = 1 + (n - 2) * k // (cuts + 1)
        if i not in picks:
            picks.append(i)
    for cut in picks:
        _tracker, data, _events = play(records[:cut])
        resumed, _info = journal_replay.recover(data)
        last = records[cut - 1].t_ms
        for record in records[cut:]:
            t = record.t_ms
            while True:
                due = resumed.next_deadline()
                if due is None or due >= t:
                    break
                resumed.tick(due)
            resumed.take(record)
            last = t
        for _ in range(8):
            due = resumed.next_deadline()
            if due is None or due > last + 1500:
                break
            resumed.tick(due)
        yield cut, resumed
