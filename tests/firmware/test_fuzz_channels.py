"""Issue 19: seeded, bounded fuzzing of every input channel of the firmware, under CPython and
MicroPython (the same file runs on both; a small LCG gives the same inputs on both).

Invariant per channel: no exception but the channel's one documented refusal, no state change on
a refused input, nothing lost (the state after the valid inputs is the state without the
refused ones). Each test counts the inputs it tried and prints the count.
"""

import json

from ingboard.bowls.bowls import Bowls
from ingboard.clock.clock import Clock
from ingboard.config_check import check_config
from ingboard.drivers.keys import Keys
from ingboard.link import commands
from ingboard.records import journal_replay
from ingboard.records.session import SessionLogError
from ingboard.records.session_read import SessionReader
from ingboard.sensing.calibration import parse_calibration
from ingboard.sensing.classifier import Classifier
from ingboard.tracking.tracker import Tracker
from ingrules.board import BLACK, WHITE
from journal_cases import fingerprint, play
from test_journal import game_records


class Rng:
    """A deterministic generator, identical on both interpreters."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n

    def choice(self, items):
        return items[self.below(len(items))]


ODD_NUMBERS = ["1e308", "-1e308", "1e999", "NaN", "Infinity", "-Infinity", "1" + "0" * 60,
               "-0", "0.5", "-1", "4294967296", "9007199254740993", "1e-320"]  # fmt: skip


def _mutate(rng, text):
    k = rng.below(7)
    if k == 0 and text:
        i = rng.below(len(text))
        return text[:i] + text[i + 1 :]
    if k == 1 and text:
        i = rng.below(len(text))
        return text[:i] + rng.choice('{}[]",:\\x0- ') + text[i + 1 :]
    if k == 2:  # a number replaced by an odd one
        for i in range(len(text)):
            if text[i] in "0123456789":
                j = i
                while j < len(text) and text[j] in "0123456789.":
                    j += 1
                if rng.below(3) == 0:
                    return text[:i] + rng.choice(ODD_NUMBERS) + text[j:]
        return text
    if k == 3:
        n = 1 + rng.below(400)
        return "[" * n + text + "]" * n
    if k == 4 and text:
        return text[: rng.below(len(text))]
    if k == 5:
        return text + text
    return text


VALID_LINES = [
    '{"cmd": "ping"}',
    '{"cmd": "state"}',
    '{"cmd": "new-game", "config": {"size": 9, "rules": "ing1991", "komi": 8}}',
    '{"cmd": "new-game", "config": {"size": 19, "rules": "aga", "time": {"system": "byoyomi",'
    ' "basic_s": 600, "periods": 5, "period_s": 30}}}',
    '{"cmd": "button", "name": "pause"}',
    '{"cmd": "enrol", "B": 1188.5, "W": 1171.9}',
    '{"cmd": "read", "name": "0001.sgf", "offset": 0, "count": 512}',
    '{"cmd": "raw-scan", "n": 4}',
]


class Recorder:
    def __init__(self):
        self.done = []

    def __getattr__(self, name):
        if not name.startswith("cmd_"):
            raise AttributeError(name)

        def method(cmd):
            if cmd["cmd"] == "new-game":  # what the app checks before anything changes
                check_config(cmd["config"])
                Tracker(cmd["config"])
            self.done.append(cmd["cmd"])
            return [{"type": "ok"}]

        return method


def test_fuzz_host_lines():
    rng = Rng(19)
    app = Recorder()
    proto = commands.Protocol(app)
    tried = refused = 0
    for _ in range(800):
        line = _mutate(rng, rng.choice(VALID_LINES))
        if rng.below(10) == 0:
            line = line.encode() + bytes([rng.below(256)])
        before = len(app.done)
        replies = proto.handle(line)  # never raises
        tried += 1
        if replies and replies[0]["type"] == "error":
            refused += 1
            assert len(replies) == 1 and replies[0]["text"]
            assert len(app.done) == before  # a refused line changed nothing
        else:
            assert len(app.done) == before + 1
    print("host lines: %d tried, %d refused" % (tried, refused))
    assert tried == 800 and 150 < refused < 800


LOG = (
    "ingboard-session 1\n"
    '0 config {"size": 9, "rules": "ing1991", "komi": 8, "time": {"system": "ing-pp",'
    ' "basic_s": 60}, "bowls": {"B": {"w180_g": 264}}}\n'
    "0 scan " + "/".join(["........."] * 9) + "\n"
    "1000 press B\n"
    "1200 button pause\n"
    "1300 bowl B 263.9\n"
    "1400 lid W 3.2\n"
)


def test_fuzz_session_log_lines():
    rng = Rng(7)
    lines = LOG.splitlines()
    tried = refused = 0
    for _ in range(1200):
        reader = SessionReader()
        k = 1 + rng.below(len(lines) - 1)
        for i, line in enumerate(lines):
            text = _mutate(rng, line) if i == k else line
            try:
                reader.feed(text + "\n")
            except SessionLogError as exc:
                # the mutated line, or a later one it made wrong (a time moved ahead)
                assert exc.line == i + 1 >= k + 1 and str(exc)
                refused += 1
                break
        tried += 1
    print("session log lines: %d tried, %d refused" % (tried, refused))
    assert tried == 1200 and refused > 200


def _config(rng):
    cfg = {"size": 9, "rules": "ing1991"} if rng.below(2) else {}
    for _ in range(rng.below(7)):
        key = rng.choice(["size", "rules", "komi", "handicap", "handicap_style", "time",
                          "round_start_ms", "players", "bowls", "x"])  # fmt: skip
        cfg[key] = rng.choice([
            9, 13, 19, 4, 20, -1, 0, 7.5, 1e308, float("inf"), float("nan"), 10**40, "9",
            "ing1991", "aga", None, True, [], {"B": "x" * 70}, {"B": {"w180_g": float("nan")}},
            {"system": "ing-pp", "basic_s": 1e308}, {"system": "fischer", "basic_s": 60,
            "increment_s": 10}, {"B": "Ann", "W": "Bo"}, 2**62,
        ])  # fmt: skip
    return cfg


def test_fuzz_configs():
    rng = Rng(3)
    tried = accepted = 0
    for _ in range(800):
        cfg = _config(rng)
        tried += 1
        try:
            check_config(cfg)
        except ValueError as exc:
            assert str(exc)
            continue
        try:
            Tracker(cfg)
        except (ValueError, TypeError) as exc:  # the app refuses it the same way
            assert str(exc)
            continue
        accepted += 1
    print("configs: %d tried, %d accepted" % (tried, accepted))
    assert tried == 800 and accepted > 10


def test_fuzz_journal_bytes():
    recs = game_records(["E5", "D5", "C5", "pass", "E4"])
    tracker, data, _events = play(recs)
    whole = fingerprint(tracker, recs[-1].t_ms)["plies"]
    rng = Rng(11)
    tried = 0
    kinds = {}
    for _ in range(120):
        b = bytes(data)
        for _k in range(1 + rng.below(3)):
            i = rng.below(len(b))
            op = rng.below(3)
            if op == 0:
                b = b[:i] + bytes([rng.below(256)]) + b[i + 1 :]
            elif op == 1:
                b = b[:i] + b[i + 1 + rng.below(20) :]
            else:
                b = b[:i] + b[rng.below(len(b)) : rng.below(len(b))] + b[i:]
        tried += 1
        try:
            got, info = journal_replay.recover(bytes(b))
        except (ValueError, TypeError, KeyError, IndexError) as exc:  # what the app catches
            kinds["refused"] = kinds.get("refused", 0) + 1
            assert exc is not None
            continue
        if got is not None:
            plies = fingerprint(got, info["t"])["plies"]
            assert plies == whole[: len(plies)] or info["corrupt"] is not None
        kinds["corrupt" if info["corrupt"] is not None else "read"] = (
            kinds.get("corrupt" if info["corrupt"] is not None else "read", 0) + 1
        )
    print("journal bytes: %d tried, %r" % (tried, kinds))
    assert tried == 120 and kinds.get("corrupt", 0) > 10


def test_fuzz_load_cell_readings():
    rng = Rng(5)
    b = Bowls({"B": {"w180_g": 1188.4}, "W": {"w180_g": 1171.9}}, 19)
    odd = [float("nan"), float("inf"), -float("inf"), 1e308, -1e308, 100000.0, 10**30, None,
           "12", True, [1]]  # fmt: skip
    t = 0
    tried = 0
    for _ in range(2000):
        t += 100
        if rng.below(4) == 0:
            g = rng.choice(odd)
        else:
            g = 1188.4 + (rng.below(100) - 50) / 100
        b.feed(rng.choice(["B", "W"]), g, t)  # never raises
        tried += 1
    alerts = b.poll()
    assert alerts and all(a["code"] == "sensor-fault" for a in alerts)
    for _ in range(20):  # good readings: the count is still right
        t += 100
        b.feed("B", 1188.4, t)
    print("load-cell readings: %d tried" % tried)
    assert tried == 2000 and b.count("B") == 180


def test_fuzz_clock_presses():
    rng = Rng(13)
    tried = 0
    for system in (
        {"system": "ing-pp", "basic_s": 60},
        {"system": "byoyomi", "basic_s": 10, "periods": 2, "period_s": 5},
        {"system": "canadian", "basic_s": 10, "stones": 3, "period_s": 20},
        {"system": "fischer", "basic_s": 10, "increment_s": 2},
        {"system": "absolute", "basic_s": 20},
    ):
        c = Clock(system)
        t = 0
        c.start(0, BLACK)
        for _ in range(400):
            t += rng.below(3000)
            op = rng.below(6)
            color = rng.choice([BLACK, WHITE])
            if op <= 2:
                c.moved(t, color)  # double presses, the other key, after a loss: no raise
            elif op == 3:
                c.pause(t)
            elif op == 4:
                c.resume(t)
            else:
                c.advance(t - rng.below(2000))  # an earlier instant: no time used
            tried += 1
            assert c.turn in (BLACK, WHITE)
    print("clock inputs: %d tried" % tried)
    assert tried == 2000


class Pin:
    def __init__(self):
        self.level = 1

    def __call__(self):
        return self.level


def test_fuzz_keys():
    rng = Rng(17)
    pins = [Pin(), Pin(), Pin()]
    keys = Keys(pins, debounce_ms=20)
    t = 0
    presses = edges = 0
    for _ in range(3000):
        t += rng.below(15)
        for p in pins:
            if rng.below(8) == 0:
                p.level ^= 1
                edges += 1
        counted = keys.poll(t)
        taken = keys.taken()
        assert len(taken) == counted and len(set(taken)) == len(taken)
        presses += counted
    print("key samples: 3000 tried, %d edges, %d presses" % (edges, presses))
    assert presses * 2 <= edges


def _scan(rng, rows):
    """The board the sensors show next: mostly one point changed, sometimes anything."""
    if rng.below(60) == 0:
        return ["".join(rng.choice(".BW?") for _ in range(9)) for _ in range(9)]
    y = rng.below(9)
    x = rng.below(9)
    row = rows[y]
    rows = list(rows)
    rows[y] = row[:x] + rng.choice(".BW.BW.BW?") + row[x + 1 :]
    return rows


def test_fuzz_scans_and_presses_through_the_tracker():
    rng = Rng(23)
    tried = 0
    tr = Tracker({"size": 9, "rules": "ing1991", "time": {"system": "ing-pp", "basic_s": 600}})
    t = 0
    rows = ["........."] * 9
    for _ in range(600):
        t += 40 + rng.below(400)
        k = rng.below(10)
        tried += 1
        if k < 6:
            rows = _scan(rng, rows)
            tr.scan(t, rows)  # any board the sensors may show: never raises
        elif k < 9:
            tr.press(t, rng.choice([BLACK, WHITE]))
        else:
            tr.button(t, rng.choice(["pause", "resume", "undo", "dispute", "agree"]))
        tr.tick(t)
    print("tracker inputs: %d tried, %d plies" % (tried, len(tr.game.plies)))
    assert tried == 600


def test_fuzz_calibration_files():
    c = Classifier(9)
    before = (bytes(c.classes), list(c.cal_empty))
    rng = Rng(29)
    tried = 0
    for _ in range(300):
        data = bytes(rng.below(256) for _ in range(rng.below(500)))
        if rng.below(2):
            data = b"IGCL" + data
        tried += 1
        try:
            parse_calibration(data)
            c.load_calibration(data)
        except ValueError as exc:
            assert str(exc)
        assert (bytes(c.classes), list(c.cal_empty)) == before
    print("calibration files: %d tried" % tried)
    assert tried == 300 and (bytes(c.classes), list(c.cal_empty)) == before


def test_fuzz_is_deterministic():
    a, b = Rng(1), Rng(1)
    assert [a.below(1000) for _ in range(20)] == [b.below(1000) for _ in range(20)]
    assert json.dumps([Rng(5).below(7)]) == "[%d]" % Rng(5).below(7)
