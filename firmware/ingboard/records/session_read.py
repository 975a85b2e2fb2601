"""Session log, format 1: the reader (records/session.py has the format, the records and the
writer; its names for the reader come from here). Apart from the writer because the board
reads a log only to rebuild a game after a power cut (resume.py): loaded then and dropped
after (issue 17: on the stock Pico image the code of .mpy files is heap).
"""

import json

from ingrules.board import BLACK, WHITE

from ingboard import gc_policy
from ingboard.game_config import BUTTONS
from ingboard.records.session import (
    BUTTON,
    CONFIG,
    HEADER,
    KINDS,
    PRESS,
    SCAN,
    Record,
    SessionLogError,
    check_rows,
)

_HEADER_WORD = "ingboard-session"
_DIGITS = "0123456789"


def parse_colour(text):
    if text == "B":
        return BLACK
    if text == "W":
        return WHITE
    raise ValueError("colour must be B or W, not %r" % (text,))


def parse_grams(text):
    """A decimal number of grams ("1188.4", "-0.3", "12"); ValueError for anything else."""
    digits = 0
    dots = 0
    for i in range(len(text)):
        ch = text[i]
        if ch in _DIGITS:
            digits += 1
        elif ch == "." and dots == 0:
            dots = 1
        elif not (ch == "-" and i == 0):
            digits = 0
            break
    if not digits:
        raise ValueError("grams must be a decimal number, not %r" % (text,))
    return float(text)


def _parse_time(text):
    if not text:
        raise ValueError("missing time")
    for ch in text:
        if ch not in _DIGITS:
            raise ValueError("time must be a whole number of milliseconds, not %r" % (text,))
    return int(text)


class SessionReader:
    """Streaming reader: feed() one line at a time; finish() at the end of the log."""

    def __init__(self):
        self.line = 0  # number of the last line fed
        self.config = None
        self.size = 0
        self.t_ms = 0  # time of the last record
        self._header = False

    def feed(self, text):
        """Parse one line; return its Record, or None for blank, comment and header lines."""
        self.line += 1
        n = self.line
        if text.endswith("\n"):
            text = text[:-1]
        if text.endswith("\r"):
            text = text[:-1]
        if not text or text[0] == "#" or not text.strip():
            return None
        if not self._header:
            words = text.split()
            if len(words) == 2 and words[0] == _HEADER_WORD and words[1] != "1":
                raise SessionLogError(n, "unsupported session log version %s" % words[1])
            if text != HEADER:
                raise SessionLogError(n, "bad header %r: expected %r" % (text[:40], HEADER))
            self._header = True
            return None
        parts = text.split(" ", 2)
        if len(parts) < 2:
            raise SessionLogError(n, "expected '<t_ms> <kind> <payload>'")
        try:
            t_ms = _parse_time(parts[0])
        except ValueError as exc:
            raise SessionLogError(n, str(exc))
        kind = parts[1]
        if kind not in KINDS:
            raise SessionLogError(n, "unknown record kind %r" % (kind,))
        if t_ms < self.t_ms:
            raise SessionLogError(
                n, "time %d is before the previous record's time %d" % (t_ms, self.t_ms)
            )
        payload = parts[2] if len(parts) == 3 else ""
        if not payload:
            raise SessionLogError(n, "%s record has no payload" % kind)
        if kind == CONFIG:
            if self.config is not None:
                raise SessionLogError(n, "config repeated (it must appear exactly once)")
            try:
                config = json.loads(payload)
            except ValueError:
                raise SessionLogError(n, "config is not valid JSON")
            try:
                from ingboard.config_check import check_config

                check_config(config)
                gc_policy.drop("ingboard.config_check")  # checked once: no heap kept
            except ValueError as exc:
                raise SessionLogError(n, str(exc))
            self.config = config
            self.size = config["size"]
            value = config
        elif self.config is None:
            raise SessionLogError(n, "%s record before the config (config must come first)" % kind)
        else:
            try:
                value = self._payload(kind, payload)
            except ValueError as exc:
                raise SessionLogError(n, str(exc))
        self.t_ms = t_ms
        return Record(t_ms, kind, value, n)

    def _payload(self, kind, payload):
        if kind == SCAN:
            rows = payload.split("/")
            check_rows(rows, self.size)
            return rows
        if kind == PRESS:
            return parse_colour(payload)
        if kind == BUTTON:
            if payload not in BUTTONS:
                raise ValueError("unknown button %r (one of %s)" % (payload, ", ".join(BUTTONS)))
            return payload
        # bowl, lid
        words = payload.split(" ")
        if len(words) != 2:
            raise ValueError("%s record must be '<B|W> <grams>', not %r" % (kind, payload))
        return (parse_colour(words[0]), parse_grams(words[1]))

    def finish(self):
        """Check the end of the log: the header and the config must have been seen."""
        if not self._header:
            raise SessionLogError(max(self.line, 1), "empty log: no %r header" % HEADER)
        if self.config is None:
            raise SessionLogError(max(self.line, 1), "log ends without a config record")


def records(lines):
    """Yield the Records of an iterable of lines (a file, a list); SessionLogError on error."""
    reader = SessionReader()
    for text in lines:
        record = reader.feed(text)
        if record is not None:
            yield record
    reader.finish()


def read_text(text):
    """All Records of a whole log given as one string."""
    return list(records(text.split("\n")))
