"""Session log, format 1: the reader and the writer (on the board and on the PC).

A session log is every sensor and button event of a game, one line each, with times:

    ingboard-session 1
    0 config {"size": 19, "rules": "ing1991"}
    0 scan .../.../...
    5310 press B
    5400 bowl W 1171.9

The reader is streaming: `SessionReader.feed(line)` takes one line at a time and returns a
`Record` (or None for blank, comment and header lines), so the board can replay a log from flash
without holding it in memory; `records(lines)` wraps it as a generator. It is in
records/session_read.py (the board reads a log only to rebuild a game after a power cut: loaded
then, issue 17), its names also found here. Every format error is a
`SessionLogError` naming the 1-based line. The writer emits the header, the config once, then
records, and by default leaves out a scan identical to the previous one (the format lets a
scan hold until the next).

Extensions of format 1 (compatible: older logs read the same; a reader that predates them
rejects the new words with their line, as the format says): the button `accept-shift` (both
players accept moved stones where they now stand, issue 14), and the config key `retraction`
(`record`, the default, or `forfeit`: Ing 1991 Art. 8 "Forfeiture" (3)).

Payloads come out parsed: config → dict, scan → list of `size` row strings (top line first, from
".BW?"), press → colour (BLACK/WHITE), button → name, bowl/lid → (colour, grams).
"""

import json

from ingrules.board import BLACK, MAX_SIZE, MIN_SIZE, WHITE
from ingrules.game import MAX_KOMI
from ingrules.rulesets import (
    COMPENSATIONS,
    HANDICAP_FIXED,
    HANDICAP_FREE,
    HANDICAP_ING_PLAYS,
    NAMES,
)

HEADER = "ingboard-session 1"

CONFIG = "config"
SCAN = "scan"
PRESS = "press"
BUTTON = "button"
BOWL = "bowl"
LID = "lid"
KINDS = (CONFIG, SCAN, PRESS, BUTTON, BOWL, LID)

BUTTONS = (
    "pause",
    "resume",
    "agree",
    "dispute",
    "resign-B",
    "resign-W",
    "undo",
    "new-game",
    "accept-shift",
    "enrol",  # the players counted the set with the frame (Ing 1991 Art. 9 "Counting" (1))
)

# The rule systems and handicap styles a config may name come from rulesets.py's one table.
RULES = NAMES
HANDICAP_STYLES = (HANDICAP_ING_PLAYS, HANDICAP_FIXED, HANDICAP_FREE)
# Time systems and the keys each needs besides "system" (spec: basic_s for all but none);
# the same systems as clock.py's SYSTEMS (a test checks).
TIME_SYSTEMS = {
    "none": (),
    "absolute": ("basic_s",),
    "ing-pp": ("basic_s",),
    "byoyomi": ("basic_s", "periods", "period_s"),
    "canadian": ("basic_s", "stones", "period_s"),
    "fischer": ("basic_s", "increment_s"),
}

SCAN_CHARS = ".BW?"
# Bounds of a config's numbers (a trust boundary: host lines, files): every number is finite and
# at most MAX_NUMBER (a year of milliseconds is 3.2e10); names are at most MAX_NAME characters.
MAX_NUMBER = 10**12
MAX_NAME = 64


class SessionLogError(Exception):
    """A line that breaks the format; `line` is its 1-based number, `message` says why."""

    def __init__(self, line, message):
        super().__init__("line %d: %s" % (line, message))
        self.line = line
        self.message = message


class Record:
    """One log record: time, kind and the parsed payload (see the module docstring)."""

    def __init__(self, t_ms, kind, payload, line=0):
        self.t_ms = t_ms
        self.kind = kind
        self.payload = payload
        self.line = line  # where it was read (0 when built in code)

    def __eq__(self, other):
        return (
            isinstance(other, Record)
            and self.t_ms == other.t_ms
            and self.kind == other.kind
            and self.payload == other.payload
        )

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return "Record(%d, %r, %r)" % (self.t_ms, self.kind, self.payload)

    def text(self):
        """The record as a log line, without the newline."""
        return "%d %s %s" % (self.t_ms, self.kind, payload_text(self.kind, self.payload))


# -- payload checks, shared by reader and writer (ValueError with a message) -----------------


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v):
    """A finite number within +-MAX_NUMBER (NaN, infinities, 1e308 and huge ints are not)."""
    return (
        (isinstance(v, int) or isinstance(v, float))
        and not isinstance(v, bool)
        and -MAX_NUMBER <= v <= MAX_NUMBER
    )


def check_config(config):
    """Raise ValueError naming the problem unless `config` is a valid config object."""
    if not isinstance(config, dict):
        raise ValueError("config must be a JSON object")
    if "size" not in config:
        raise ValueError("config has no size")
    size = config["size"]
    if not _is_int(size) or size < MIN_SIZE or size > MAX_SIZE:
        raise ValueError("config size must be %d..%d, not %r" % (MIN_SIZE, MAX_SIZE, size))
    if "rules" not in config:
        raise ValueError("config has no rules")
    if config["rules"] not in RULES:
        raise ValueError("unknown rules %r (one of %s)" % (config["rules"], ", ".join(RULES)))
    if "komi" in config and not (_is_number(config["komi"]) and abs(config["komi"]) <= MAX_KOMI):
        raise ValueError(
            "config komi must be a number within +-%d, not %r" % (MAX_KOMI, config["komi"])
        )
    if "handicap" in config:
        h = config["handicap"]
        if not _is_int(h) or h < 0 or h >= size * size:
            raise ValueError("config handicap must be a count of stones, not %r" % (h,))
    if "handicap_style" in config and config["handicap_style"] not in HANDICAP_STYLES:
        raise ValueError(
            "unknown handicap_style %r (one of %s)"
            % (config["handicap_style"], ", ".join(HANDICAP_STYLES))
        )
    if "handicap_compensation" in config and config["handicap_compensation"] not in COMPENSATIONS:
        raise ValueError(
            "unknown handicap_compensation %r (one of %s)"
            % (config["handicap_compensation"], ", ".join(COMPENSATIONS))
        )
    if "time" in config:
        _check_time(config["time"])
    if "round_start_ms" in config:
        r = config["round_start_ms"]
        if not _is_int(r) or r < 0 or r > MAX_NUMBER:
            raise ValueError("config round_start_ms must be an integer >= 0, not %r" % (r,))
    if "prisoners" in config and config["prisoners"] not in ("lid", "bowl"):
        raise ValueError("config prisoners must be lid or bowl, not %r" % (config["prisoners"],))
    if "pass_stones" in config and config["pass_stones"] not in ("none", "prisoner", "beside"):
        raise ValueError(
            "config pass_stones must be none, prisoner or beside, not %r"
            % (config["pass_stones"],)
        )
    for key in ("date", "event", "round"):
        if key in config and not isinstance(config[key], str):
            raise ValueError("config %s must be a string, not %r" % (key, config[key]))
    if "players" in config:
        _check_per_colour(config["players"], "players")
        for name in config["players"].values():
            if not isinstance(name, str) or len(name) > MAX_NAME:
                raise ValueError(
                    "config players must be names of at most %d characters, not %r"
                    % (MAX_NAME, name)
                )
    if "bowls" in config:
        _check_per_colour(config["bowls"], "bowls")
        for bowl in config["bowls"].values():
            if not isinstance(bowl, dict):
                raise ValueError("config bowls.B / bowls.W must be objects")
            if "w180_g" in bowl and not (_is_number(bowl["w180_g"]) and bowl["w180_g"] > 0):
                raise ValueError("config w180_g must be a positive weight in grams")


def _check_per_colour(value, key):
    if not isinstance(value, dict):
        raise ValueError("config %s must be an object" % key)
    for k in value:
        if k not in ("B", "W"):
            raise ValueError("config %s keys must be B and W, not %r" % (key, k))


def _check_time(time):
    if not isinstance(time, dict):
        raise ValueError("config time must be an object")
    system = time.get("system")
    if system not in TIME_SYSTEMS:
        raise ValueError(
            "unknown time system %r (one of %s)" % (system, ", ".join(sorted(TIME_SYSTEMS)))
        )
    for key in TIME_SYSTEMS[system]:
        if key not in time:
            raise ValueError("time system %s needs %s" % (system, key))
        if not _is_number(time[key]) or time[key] < 0:
            raise ValueError("time %s must be a number >= 0, not %r" % (key, time[key]))


def check_rows(rows, size):
    """Raise ValueError unless `rows` are `size` rows of `size` characters from '.BW?'."""
    if len(rows) != size:
        raise ValueError("scan has %d rows, expected %d" % (len(rows), size))
    for i in range(size):
        row = rows[i]
        if len(row) != size:
            raise ValueError("scan row %d has %d points, expected %d" % (i + 1, len(row), size))
        if not row.strip(SCAN_CHARS):
            continue  # every point one of SCAN_CHARS, checked in C (issue 20: the loop below
            # took ~70 ms of the RP2040's time for a 19x19 scan, at every change of the board)
        for ch in row:
            if ch not in SCAN_CHARS:
                raise ValueError(
                    "scan row %d has %r; points are one of %s" % (i + 1, ch, SCAN_CHARS)
                )


def colour_text(color):
    if color == BLACK:
        return "B"
    if color == WHITE:
        return "W"
    raise ValueError("colour must be BLACK or WHITE, not %r" % (color,))


def grams_text(grams):
    if not _is_number(grams) or grams != grams or grams > 1e6 or grams < -1e6:
        raise ValueError("grams must be a finite number, not %r" % (grams,))
    if _is_int(grams):
        return str(grams)
    # Whole tenths (what the board's load cells give, rounded) from ints: the same text as
    # "%.1f", whose soft-float formatting was ~1 ms of the RP2040's time a reading (issue 20).
    d = int(grams * 10 + (0.5 if grams >= 0 else -0.5))
    if d and -1e-6 < grams * 10 - d < 1e-6:
        a = -d if d < 0 else d
        return ("-" if d < 0 else "") + str(a // 10) + "." + str(a % 10)
    return "%.1f" % grams


def payload_text(kind, payload):
    """The text of a payload (the inverse of the reader's parsing)."""
    if kind == CONFIG:
        return json.dumps(payload)
    if kind == SCAN:
        return "/".join(payload)
    if kind == PRESS:
        return colour_text(payload)
    if kind == BUTTON:
        if payload not in BUTTONS:
            raise ValueError("unknown button %r" % (payload,))
        return payload
    if kind == BOWL or kind == LID:
        return colour_text(payload[0]) + " " + grams_text(payload[1])
    raise ValueError("unknown record kind %r" % (kind,))


# -- reader: session_read.py (loaded when used; the names below come from it) --------------

_READER = ("SessionReader", "records", "read_text", "parse_colour", "parse_grams")


def __getattr__(name):
    # The reader's names, as before it had a module of its own (PEP 562; MicroPython too).
    if name in _READER:
        from ingboard.records import session_read

        return getattr(session_read, name)
    raise AttributeError(name)


# -- writer ----------------------------------------------------------------------------------


class SessionWriter:
    """Writes a log to `out` (anything with write(str)): header, config once, then records.

    With `only_changes` (the default) a scan identical to the previous scan is not written.
    Misuse (time going back, a second config, a bad payload) raises ValueError and writes
    nothing for that record.
    """

    def __init__(self, out, only_changes=True):
        self.out = out
        self.only_changes = only_changes
        self.size = 0
        self.t_ms = 0
        self.lines = 1
        self._config = False
        self._last_scan = None
        out.write(HEADER + "\n")

    def _check_time(self, t_ms):
        if not _is_int(t_ms) or t_ms < 0:
            raise ValueError("time must be an integer >= 0 ms, not %r" % (t_ms,))
        if t_ms < self.t_ms:
            raise ValueError("time %d is before the previous record's %d" % (t_ms, self.t_ms))

    def _emit(self, t_ms, kind, text):
        self.out.write("%d %s %s\n" % (t_ms, kind, text))
        self.t_ms = t_ms
        self.lines += 1

    def config(self, t_ms, config):
        self._check_time(t_ms)
        if self._config:
            raise ValueError("config already written")
        check_config(config)
        self._config = True
        self.size = config["size"]
        self._emit(t_ms, CONFIG, json.dumps(config))

    def _need_config(self):
        if not self._config:
            raise ValueError("the config must be written first")

    def scan(self, t_ms, rows):
        """Write a scan (rows top line first); False when skipped as unchanged."""
        self._check_time(t_ms)
        self._need_config()
        check_rows(rows, self.size)
        text = "/".join(rows)
        if self.only_changes and text == self._last_scan:
            return False
        self._last_scan = text
        self._emit(t_ms, SCAN, text)
        return True

    def press(self, t_ms, color):
        self._check_time(t_ms)
        self._need_config()
        self._emit(t_ms, PRESS, colour_text(color))

    def button(self, t_ms, name):
        self._check_time(t_ms)
        self._need_config()
        self._emit(t_ms, BUTTON, payload_text(BUTTON, name))

    def bowl(self, t_ms, color, grams):
        self._check_time(t_ms)
        self._need_config()
        self._emit(t_ms, BOWL, payload_text(BOWL, (color, grams)))

    def lid(self, t_ms, color, grams):
        self._check_time(t_ms)
        self._need_config()
        self._emit(t_ms, LID, payload_text(LID, (color, grams)))

    def comment(self, text):
        """A `#` line (ignored by readers): notes for people reading the log."""
        if "\n" in text:
            raise ValueError("a comment is one line")
        self.out.write("# " + text + "\n")
        self.lines += 1

    def write(self, record):
        """Write a Record; returns False only for a skipped unchanged scan."""
        kind = record.kind
        if kind == CONFIG:
            self.config(record.t_ms, record.payload)
        elif kind == SCAN:
            return self.scan(record.t_ms, record.payload)
        elif kind == PRESS:
            self.press(record.t_ms, record.payload)
        elif kind == BUTTON:
            self.button(record.t_ms, record.payload)
        elif kind == BOWL:
            self.bowl(record.t_ms, record.payload[0], record.payload[1])
        elif kind == LID:
            self.lid(record.t_ms, record.payload[0], record.payload[1])
        else:
            raise ValueError("unknown record kind %r" % (kind,))
        return True
