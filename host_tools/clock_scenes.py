"""The clock states shown in the golden face images, README and simulator.

Each scene drives a real Clock through presses and returns (clock, now_ms). This module must
also run unchanged under MicroPython (tests/host/test_clock_faces.py sends its source there to
compare real framebuf bytes with the CPython shim's), so it imports only firmware modules.
"""

from ingboard.clock.clock import Clock
from ingrules.board import BLACK, WHITE

MIN = 60000


def ready():
    return Clock({"system": "ing-pp", "basic_s": 3600}), 0


def ing_basic():
    # Black thinks, 20:34.5 used; White has made one move.
    c = Clock({"system": "ing-pp", "basic_s": 3600})
    c.start(0, BLACK)
    c.moved(95000, BLACK)
    c.moved(130000, WHITE)
    return c, 130000 + 20 * MIN + 34500 - 95000


def ing_penalties():
    # Black in the second period (4 points), White in the first (2 points): net 2 against
    # Black (Ing 1991 Art. 7 (1)); Black to move.
    c = Clock({"system": "ing-pp", "basic_s": 3600})
    c.start(0, BLACK)
    t = 60 * MIN + 12 * MIN
    c.moved(t, BLACK)
    t += 60 * MIN + 3 * MIN
    c.moved(t, WHITE)
    return c, t + 1234


def ing_forfeit():
    # Both at 6 points; Black is first past 3/6 and loses (Ing 1991 Art. 7 (1)).
    c = Clock({"system": "ing-pp", "basic_s": 3600})
    c.start(0, BLACK)
    c.moved(60 * MIN + 25 * MIN, BLACK)
    c.moved(2 * (60 * MIN + 25 * MIN), WHITE)
    t = 2 * (60 * MIN + 25 * MIN) + 5 * MIN + 1
    c.advance(t)
    return c, t


def late_paused():
    # White came 4 minutes late (8 minutes deducted, Ing 1991 Art. 8); the clock is paused.
    c = Clock({"system": "ing-pp", "basic_s": 3600})
    c.apply_lateness(WHITE, 0, 4 * MIN)
    c.start(4 * MIN, BLACK)
    c.moved(5 * MIN, BLACK)
    c.pause(7 * MIN)
    return c, 30 * MIN


def byoyomi():
    # Black in the second of five 30 s periods, 7.2 s left; White still in basic time.
    c = Clock({"system": "byoyomi", "basic_s": 600, "periods": 5, "period_s": 30})
    c.start(0, BLACK)
    c.moved(10 * MIN + 30001, BLACK)
    c.moved(10 * MIN + 30001 + 5000, WHITE)
    t = 10 * MIN + 30001 + 5000
    return c, t + 30000 - 7200


def canadian():
    # White in a Canadian block: 25 stones in 5 minutes, 2 made.
    c = Clock({"system": "canadian", "basic_s": 300, "stones": 25, "period_s": 300})
    c.start(0, WHITE)
    c.moved(5 * MIN + 1000, WHITE)
    c.moved(5 * MIN + 2000, BLACK)
    c.moved(5 * MIN + 9000, WHITE)
    c.moved(5 * MIN + 10000, BLACK)
    return c, 5 * MIN + 10000 + 61000


def fischer():
    c = Clock({"system": "fischer", "basic_s": 300, "increment_s": 10})
    c.start(0, BLACK)
    c.moved(42000, BLACK)
    return c, 42000 + 17000


def absolute():
    c = Clock({"system": "absolute", "basic_s": 1800})
    c.start(0, BLACK)
    c.moved(12 * MIN, BLACK)
    return c, 12 * MIN + 3 * MIN + 3000


def no_clock():
    c = Clock({"system": "none"})
    c.start(0, BLACK)
    c.moved(5000, BLACK)
    return c, 9000


SCENES = (
    ("ready", ready),
    ("ing-basic", ing_basic),
    ("ing-penalties", ing_penalties),
    ("ing-forfeit", ing_forfeit),
    ("late-paused", late_paused),
    ("byoyomi", byoyomi),
    ("canadian", canadian),
    ("fischer", fischer),
    ("absolute", absolute),
    ("none", no_clock),
)
