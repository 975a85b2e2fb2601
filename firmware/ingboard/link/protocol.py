"""The host link: line-delimited JSON over USB serial, events out and commands in.

Out: every tracker event as one JSON object a line (the schema of `ingboard track --events`:
"t", "type", ...), plus `{"type": "warning", "text": ...}` (storage full, journal trouble, a
calibration mode that lapsed) and the replies below. In: one JSON object a line with a "cmd".
A line that is not a known, well-formed command gets exactly one
`{"type": "error", "cmd": name or null, "text": why}` and changes nothing. Lines longer than
MAX_LINE bytes are refused the same way.

Commands (fields; reply):

- `ping`: `{"type": "pong", "version": 1}`
- `state`: `{"type": "state", "game": n, "phase", "to_play", "plies", "result", "dropped"}`
- `new-game` (`config`: a session-log config object): the game in progress, if any, is finished
  (SGF written, session log closed); `{"type": "ok", "cmd": "new-game", "game": n}`
- `button` (`name`: pause, resume, agree, dispute, resign-B, resign-W, undo, new-game,
  accept-shift): no reply; the tracker's events follow
- `calibrate`: reloads the grid calibration file;
  `{"type": "ok", "cmd": "calibrate", "grid": loaded, "bowls": false}`
- `calibrating` (`on`, default true): while on, the board's scans and bowl readings are not
  the game's (a host calibrating it covers the board with bands of stones and puts a test
  mass in the bowls); each raw-scan or raw-bowl renews it, and it ends by itself 30 minutes
  after the last (inputs.py, CALIBRATING_MS); `{"type": "ok", "cmd": "calibrating", "on": on}`
- `enrol` (`B`, `W`: grams, optional: the latest readings): only before the first move;
  `{"type": "ok", "cmd": "enrol", "B": g, "W": g}` (the game restarts with `w180_g` set)
- `list`: `{"type": "games", "files": [{"name": "0001.sgf", "number": 1, "bytes": n}, ...]}`
  (finished SGFs and session logs)
- `read` (`name`, `offset` default 0, `count` 1..2048 default 512):
  `{"type": "file", "name", "offset", "size", "data": text}`
- `health`: `{"type": "health", "rows": ["+++...", ...], "faults": ["A19", ...]}`
- `raw-scan` (`n` 1..64, default 1): `{"type": "raw-scan", "n", "size", "values": [...]}`, per
  point (scan order) the mean of n scans
- `raw-bowl` (`n` 1..64, default 1): `{"type": "raw-bowl", "n", "B": code, "W": code}`, the
  median raw HX711 codes
- `cpu`: `{"type": "cpu", "unit_us", "elapsed_us", "tasks": {"scan": us, ...}, "load_pct",
  "scans", "scan_late_max_us"}`, the CPU each task took since the start (App.cpu_stats);
  with `"reset": true` the counters start again after the reply (e.g. to time one burst)
- `mem`: `{"type": "mem", "free", "alloc", "largest"}`: bytes of the heap after a collection,
  and the largest block an allocation can get (gc_policy.heap_figures; null where the
  interpreter has no such heap, e.g. CPython)
- `plies` (`from`, default 0): `{"type": "plies", "from", "total", "plies": [["B", "D4", kind],
  ...]}`, at most MAX_PLIES of the game in progress from ply `from` (point null for a pass;
  kind as ingrules/game.py's Ply): how a host checks the game the board holds (e.g. resumed)

Every reply goes out in pieces through one fixed buffer (`pieces`, `LineWriter`): a large reply
needs no large block of memory. A reply that cannot be written even so (MemoryError) is replaced
by `{"type": "error", "cmd": name, "text": "reply lost: ..."}`, so the host always gets an
answer; a line cut short by it is ended first (the host reads one line that is not JSON).

`parse(line)` checks a line against this table (ProtocolError with the reason); commands.py's
`Protocol(app)` dispatches to the app's `cmd_*` methods (or host_commands.py's) and turns every
refusal into one error reply. This module imports nothing of the firmware.
"""

import json

from micropython import const

VERSION = const(1)
MAX_LINE = const(4096)
MAX_READ = const(2048)
MAX_SAMPLES = const(64)
MAX_PLIES = const(64)  # plies in one `plies` reply
PIECE = const(128)  # characters of a long string value in one piece of a line (pieces())
MAX_OFFSET = const(0x3FFFFFFF)  # file offsets: a small int on the board
# Nesting of a command's JSON: {"cmd", "config": {"bowls": {"B": {...}}}} is 4 deep. Deeper
# lines are refused before json.loads, whose recursion a thousand brackets would exhaust.
MAX_DEPTH = const(8)

BUTTONS = (
    "pause",
    "resume",
    "agree",
    "dispute",
    "resign-B",
    "resign-W",
    "undo",
    "new-game",
    "accept-shift",  # the players accept a nudged stone where it stands (game_config.BUTTONS)
)

# command -> {field: kind}; kinds: "config" (object), "button", "grams", "name", "count" (int
# >= 0), "samples" (1..MAX_SAMPLES), "chunk" (1..MAX_READ).
COMMANDS = {
    "ping": {},
    "state": {},
    "new-game": {"config": "config"},
    "button": {"name": "button"},
    "calibrate": {},
    "calibrating": {"on": "flag"},
    "enrol": {"B": "grams", "W": "grams"},
    "list": {},
    "read": {"name": "name", "offset": "count", "count": "chunk"},
    "health": {},
    "raw-scan": {"n": "samples"},
    "raw-bowl": {"n": "samples"},
    "cpu": {"reset": "flag"},
    "mem": {},
    "plies": {"from": "count"},
}
REQUIRED = {"new-game": ("config",), "button": ("name",), "read": ("name",)}


class ProtocolError(ValueError):
    """A refused line; `cmd` is the command's name when it had one."""

    def __init__(self, text, cmd=None):
        super().__init__(text)
        self.cmd = cmd


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _check(name, key, kind, v):
    if kind == "config":
        if not isinstance(v, dict):
            raise ProtocolError("config must be a JSON object", name)
    elif kind == "button":
        if v not in BUTTONS:
            raise ProtocolError("unknown button %r" % (v,), name)
    elif kind == "grams":
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v < 100000:  # NaN too
            raise ProtocolError("%s must be grams > 0" % key, name)
    elif kind == "name":
        if not isinstance(v, str) or not v or "/" in v or len(v) > 64:
            raise ProtocolError("name must be a file name", name)
    elif kind == "count":
        if not _is_int(v) or v < 0 or v > MAX_OFFSET:
            raise ProtocolError("%s must be an integer 0..%d" % (key, MAX_OFFSET), name)
    elif kind == "flag":
        if not isinstance(v, bool):
            raise ProtocolError("%s must be true or false" % key, name)
    elif kind == "samples":
        if not _is_int(v) or not 1 <= v <= MAX_SAMPLES:
            raise ProtocolError("%s must be 1..%d" % (key, MAX_SAMPLES), name)
    elif kind == "chunk":
        if not _is_int(v) or not 1 <= v <= MAX_READ:
            raise ProtocolError("%s must be 1..%d" % (key, MAX_READ), name)


def too_deep(text, limit):
    """True when the JSON text nests objects/arrays deeper than `limit` (strings skipped)."""
    depth = 0
    in_string = False
    escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{" or ch == "[":
            depth += 1
            if depth > limit:
                return True
        elif ch == "}" or ch == "]":
            depth -= 1
    return False


def parse(line):
    """(name, command dict) of one line (bytes or str); ProtocolError if it is not one."""
    if len(line) > MAX_LINE:
        raise ProtocolError("line longer than %d bytes" % MAX_LINE)
    if isinstance(line, (bytes, bytearray)):
        try:
            line = bytes(line).decode()
        except UnicodeError:
            raise ProtocolError("line is not UTF-8")
    if too_deep(line, MAX_DEPTH):
        raise ProtocolError("line nests deeper than %d" % MAX_DEPTH)
    try:
        cmd = json.loads(line)
    except (ValueError, IndexError, TypeError, RuntimeError):
        raise ProtocolError("line is not JSON")
    if not isinstance(cmd, dict):
        raise ProtocolError("a command is a JSON object with a cmd")
    name = cmd.get("cmd")
    if not isinstance(name, str) or name not in COMMANDS:
        raise ProtocolError(
            "unknown command %r" % (name,), name if isinstance(name, str) else None
        )
    fields = COMMANDS[name]
    for key in cmd:
        if key != "cmd" and key not in fields:
            raise ProtocolError("unknown field %r" % (key,), name)
    for key in REQUIRED.get(name, ()):
        if key not in cmd:
            raise ProtocolError("%s needs %s" % (name, key), name)
    for key in cmd:
        if key != "cmd":
            _check(name, key, fields[key], cmd[key])
    return name, cmd


def error(text, cmd=None):
    return {"type": "error", "cmd": cmd, "text": text}


def pieces(message):
    """The JSON text of `message` (as json.dumps writes it) in small pieces: every element of
    a dict or list is a piece of its own and a long string goes PIECE characters at a time, so
    that a large reply (a `plies` reply is ~2 KB) never needs one large block of memory - on
    the Pico, at the end of a long game, no such block may be left (issue 20)."""
    if isinstance(message, dict):
        sep = "{"
        for key in message:
            yield sep + json.dumps(key) + ": "
            yield from pieces(message[key])
            sep = ", "
        yield "{}" if sep == "{" else "}"
    elif isinstance(message, (list, tuple)):
        sep = "["
        for item in message:
            yield sep
            yield from pieces(item)
            sep = ", "
        yield "[]" if sep == "[" else "]"
    elif isinstance(message, str) and len(message) > PIECE:
        yield '"'
        for i in range(0, len(message), PIECE):
            yield json.dumps(message[i : i + PIECE])[1:-1]
        yield '"'
    else:
        yield json.dumps(message)


class LineWriter:
    """Writes messages as lines through a fixed buffer of `size` bytes (allocated once): the
    pieces of a message (pieces()) are gathered in it and written whenever it is full, so a
    line of any length is written with no block larger than the buffer and its pieces."""

    def __init__(self, size=256):
        self.buf = bytearray(size)
        self.n = 0
        self.written = 0  # bytes of the current line written out so far

    def _put(self, write, data):
        buf = self.buf
        while data:
            room = len(buf) - self.n
            if room == 0:
                self._flush(write)
                room = len(buf)
            take = data[:room] if len(data) > room else data
            buf[self.n : self.n + len(take)] = take
            self.n += len(take)
            data = data[len(take) :] if len(take) < len(data) else b""

    def _flush(self, write):
        if self.n:
            write(bytes(self.buf[: self.n]))
            self.written += self.n
            self.n = 0

    def send(self, write, message):
        """Write `message` and its newline with `write(bytes)`. On an exception (MemoryError)
        whatever part of the line went out is ended with a newline (the host reads a line that
        is not JSON, never one glued to the next) and the exception is raised again."""
        self.n = 0
        self.written = 0
        try:
            for piece in pieces(message):
                self._put(write, piece.encode())
            self._put(write, b"\n")
            self._flush(write)
        except Exception:
            self.n = 0
            if self.written:
                write(b"\n")
            raise
