"""Session log, format 1: the reader and the writer (on the board and on the PC).

A session log is every sensor and button event of a game, one line each, with times:

    ingboard-session 1
    0 config {"size": 19, "rules": "ing1991"}
    0 scan .../.../...
    5310 press B
    5400 bowl W 1171.9

The reader is streaming: `SessionReader.feed(line)` takes one line at a time and returns a
`Record` (or None for blank, comment and header lines), so the board can replay a log from flash
without holding it in memory; `records(lines)` wraps it as a generator. It is
session_read.py (the board reads a log only to rebuild a game after a power cut: loaded then).
Every format error is a `SessionLogError` naming the 1-based line. A config is checked by
config_check.check_config, the same for the reader, the writer, the menus and the host. The
writer emits the header, the config once, then records, and by default leaves out a scan
identical to the previous one (the format lets a scan hold until the next).

Extensions of format 1 (compatible: older logs read the same; a reader that predates them
rejects the new words with their line, as the format says): the button `accept-shift` (both
players accept moved stones where they now stand, issue 14), and the config key `retraction`
(`record`, the default, or `forfeit`: Ing 1991 Art. 8 "Forfeiture" (3)).

Payloads come out parsed: config → dict, scan → list of `size` row strings (top line first, from
".BW?"), press → colour (BLACK/WHITE), button → name, bowl/lid → (colour, grams).
"""

import json

from ingrules.board import BLACK, WHITE

from ingboard import gc_policy
from ingboard.game_config import BUTTONS, is_int

HEADER = "ingboard-session 1"

CONFIG = "config"
SCAN = "scan"
PRESS = "press"
BUTTON = "button"
BOWL = "bowl"
LID = "lid"
KINDS = (CONFIG, SCAN, PRESS, BUTTON, BOWL, LID)

SCAN_CHARS = ".BW?"


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


def check_rows(rows, size):
    """Raise ValueError unless `rows` are `size` rows of `size` characters from '.BW?', or
    for a smaller game the full 19x19 grid's (played in its corner, tracking/region.py)."""
    n = len(rows)
    if n != size and not (size < 19 and n == 19):
        raise ValueError("scan has %d rows, expected %d" % (n, size))
    size = n
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
    if is_int(_checked_grams(grams)):
        return str(grams)
    d = _tenths(grams)
    if d:
        a = -d if d < 0 else d
        # One string made (a bowl reading is the most frequent line of the log).
        return "%s%d.%d" % ("-" if d < 0 else "", a // 10, a % 10)
    return "%.1f" % grams


def _checked_grams(grams):
    # is_number()'s test of the type, in line: its range test (+-10**12, a long int on
    # MicroPython, negated) made ~32 bytes at every reading (issue 32), and this one is narrower.
    if (
        not (isinstance(grams, int) or isinstance(grams, float))
        or isinstance(grams, bool)
        or grams != grams
        or grams > 1e6
        or grams < -1e6
    ):
        raise ValueError("grams must be a finite number, not %r" % (grams,))
    return grams


def _tenths(grams):
    # Whole tenths (what the board's load cells give, rounded) as an int, else 0: the same
    # text as "%.1f" from ints, whose soft-float formatting was ~1 ms of the RP2040's time a
    # reading (issue 20). The product is made once: each float is a heap object (issue 32).
    # round(): an int made from the float, where int(x + 0.5) made one more float first (the
    # same d whenever x is within 1e-6 of a whole number, the only d given back).
    x = grams * 10
    d = round(x)
    if d and -1e-6 < x - d < 1e-6:
        return d
    return 0


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
        if not is_int(t_ms) or t_ms < 0:
            raise ValueError("time must be an integer >= 0 ms, not %r" % (t_ms,))
        if t_ms < self.t_ms:
            raise ValueError("time %d is before the previous record's %d" % (t_ms, self.t_ms))

    def _emit(self, t_ms, kind, text, pieces=False):
        out = self.out
        if pieces:
            # The payload written as it is, after its head (a file: it takes a line in
            # pieces): a scan line of ~380 characters is not copied into one more string of
            # its length (issue 32: the heap a ply allocates decides how often the RP2040
            # collects).
            out.write("%d %s " % (t_ms, kind))
            out.write(text)
            out.write("\n")
        else:
            out.write("%d %s %s\n" % (t_ms, kind, text))
        self.t_ms = t_ms
        self.lines += 1

    def config(self, t_ms, config):
        self._check_time(t_ms)
        if self._config:
            raise ValueError("config already written")
        from ingboard.config_check import check_config

        check_config(config)
        gc_policy.drop("ingboard.config_check")  # checked once a game: no heap kept
        self._config = True
        self.size = config["size"]
        self._emit(t_ms, CONFIG, json.dumps(config))

    def _need_config(self):
        if not self._config:
            raise ValueError("the config must be written first")

    def scan(self, t_ms, rows, text=None):
        """Write a scan (rows top line first); False when skipped as unchanged. `text`, when
        given, is "/".join(rows) as the board's scan task made it: written as it is after the
        line's head, in pieces (the app's log is a file; ValueError if its length is not the
        rows')."""
        self._check_time(t_ms)
        self._need_config()
        check_rows(rows, self.size)
        pieces = text is not None
        if text is None:
            text = "/".join(rows)
        elif len(text) != len(rows) * (len(rows[0]) + 1) - 1:
            raise ValueError("scan text is not its rows joined")
        if self.only_changes and text == self._last_scan:
            return False
        self._last_scan = text
        self._emit(t_ms, SCAN, text, pieces)
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
        # The same text as payload_text(BOWL, ...), without its pieces joined twice; whole
        # tenths (the load cells' readings) in the line's one format, no grams text made first
        # (issue 32: a reading is the most frequent line; the bytes a ply allocates decide how
        # often the RP2040 collects).
        d = 0 if is_int(_checked_grams(grams)) else _tenths(grams)
        if d:
            a = -d if d < 0 else d
            self.out.write(
                "%d %s %s %s%d.%d\n"
                % (t_ms, BOWL, colour_text(color), "-" if d < 0 else "", a // 10, a % 10)
            )
        else:
            self.out.write("%d %s %s %s\n" % (t_ms, BOWL, colour_text(color), grams_text(grams)))
        self.t_ms = t_ms
        self.lines += 1

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
