"""A session log played on the twin's hardware models, at the right emulated times.

The log (records/session.py, format 1) says what the board's sensors and keys saw; here it becomes
what the models do: a `scan` line is the position under the grid's Hall sensors ('?' = a hand
holding a stone close above the point), `press B|W` a clock key pressed, `button pause|resume`
the pause key, `bowl C grams` the load on that bowl's cell, and any other button
(agree, undo, resign, ...) the host command the app's USB link takes for it. The app on the twin
then reads all of it through its own drivers, exactly as on a board.

Only changes matter to a model (a position or a weight holds until the next), so `changes()`
keeps one action per change. `compress()` shortens the idle time between two changes to at most
`max_gap_ms` (thinking time: nothing happens on the board), so a game plays in a few emulated
seconds per move instead of minutes; the short gaps (a stone settling, a hand leaving, the press
after the stone) are kept as they are.
"""

import json

from ingboard.records import session
from ingrules.board import BLACK

import host_tools  # noqa: F401  (puts firmware/ on sys.path)
from host_tools.errors import InputError

KEY_HOLD_MS = 80  # a player's press
MIN_RUN_MS = 0.001  # one emulated µs: the finest step run_until asks the twin for
PAUSE_KEY = "pause"


def changes(records):
    """[(t_ms, kind, value)]: kind "config" (dict), "grid" (position text), "key" (name),
    "bowl" ((colour, grams)), "link" (a host command dict); one per change."""
    out = []
    position = None
    grams = {}
    for rec in records:
        kind = rec.kind
        if kind == session.CONFIG:
            out.append((rec.t_ms, "config", rec.payload))
        elif kind == session.SCAN:
            text = "/".join(rec.payload)
            if text != position:
                position = text
                out.append((rec.t_ms, "grid", text))
        elif kind == session.PRESS:
            out.append((rec.t_ms, "key", "B" if rec.payload == BLACK else "W"))
        elif kind == session.BUTTON:
            if rec.payload in ("pause", "resume"):
                out.append((rec.t_ms, "key", PAUSE_KEY))
            else:
                out.append((rec.t_ms, "link", {"cmd": "button", "name": rec.payload}))
        elif kind == session.BOWL:
            color, g = rec.payload
            c = "B" if color == BLACK else "W"
            if grams.get(c) != g:
                grams[c] = g
                out.append((rec.t_ms, "bowl", (c, g)))
        else:
            raise InputError("line %d: the twin has no model for %r records" % (rec.line, kind))
    return out


def compress(items, max_gap_ms):
    """The same actions with every gap between two of them cut to at most max_gap_ms."""
    out = []
    last_old = last_new = None
    for t, kind, value in items:
        if last_old is None:
            new = t
        else:
            new = last_new + min(t - last_old, max_gap_ms)
        out.append((new, kind, value))
        last_old, last_new = t, new
    return out


def to_log(items, config):
    """The session log text of compressed actions (what `ingboard track` compares against)."""
    lines = [session.HEADER, "0 config %s" % json.dumps(config)]
    for t, kind, value in items:
        if kind == "grid":
            lines.append("%d scan %s" % (t, value))
        elif kind == "key":
            if value == PAUSE_KEY:
                raise InputError("to_log: pause/resume are kept as their key, not a button")
            lines.append("%d press %s" % (t, value))
        elif kind == "bowl":
            lines.append("%d bowl %s %s" % (t, value[0], session.grams_text(value[1])))
        elif kind == "link":
            lines.append("%d button %s" % (t, value["name"]))
    return "\n".join(lines) + "\n"


def read_lines(twin, buffer, messages, noise, on_message=None):
    """Take the twin's serial output: each whole line that is a JSON object is appended to
    `messages` (and handed to on_message), any other non-blank line (a traceback, the REPL's
    banner) to `noise`. Returns what is left of an unfinished last line."""
    buffer += twin.take_output()
    while b"\n" in buffer:
        line, buffer = buffer.split(b"\n", 1)
        text = line.decode("utf-8", "replace").strip()
        if not text:
            continue
        try:
            msg = json.loads(text)
        except ValueError:
            msg = None
        if not isinstance(msg, dict):
            noise.append(text)
            continue
        messages.append(msg)
        if on_message:
            on_message(msg)
    return buffer


class Player:
    """Plays actions on a twin whose app runs: `play(items, on_line)`.

    Time 0 of the actions is the moment the app confirmed the new game (its board time 0);
    emulated time is advanced in lock-step to each action's time, the action applied, and every
    line the app sends meanwhile handed to `on_line(dict)` (non-JSON lines, e.g. a traceback,
    are collected in `noise`)."""

    def __init__(self, twin, step_ms=20, hold_ms=KEY_HOLD_MS):
        self.twin = twin
        self.step_ms = step_ms
        self.hold_ms = hold_ms  # how long a key is held down
        self.start_us = None
        self.buffer = b""
        self.noise = []
        self.messages = []

    def now_ms(self):
        return (self.twin.status()["us"] - self.start_us) / 1000.0

    def _lines(self, on_line):
        self.buffer = read_lines(self.twin, self.buffer, self.messages, self.noise, on_line)

    def send(self, command):
        self.twin.write(json.dumps(command) + "\n")

    def wait_for(self, predicate, max_ms=5000, on_line=None):
        """Run until a message satisfies predicate; return it (TimeoutError otherwise)."""
        seen = len(self.messages)
        waited = 0
        while True:
            self._lines(on_line)
            for msg in self.messages[seen:]:
                if predicate(msg):
                    return msg
            seen = len(self.messages)
            if waited >= max_ms:
                raise TimeoutError("the app did not answer in %d emulated ms" % max_ms)
            self.twin.run_ms(self.step_ms)
            waited += self.step_ms

    def wait_until_running(self, max_ms=20000, every_ms=1000, on_line=None):
        """Ping the app until it answers: a line sent while the board is still starting (the
        soft reset, main.py loading its code) reaches the REPL or nobody, so one ping may never
        be seen. TimeoutError when the app never answers in max_ms."""
        waited = 0
        while waited < max_ms:
            self.send({"cmd": "ping"})
            try:
                return self.wait_for(lambda m: m.get("type") == "pong", every_ms, on_line)
            except TimeoutError:
                waited += every_ms
        raise TimeoutError(
            "the app did not answer a ping in %d emulated ms (the board said: %s)"
            % (max_ms, " | ".join(self.noise[-5:]) or "nothing")
        )

    def new_game(self, config, on_line=None):
        self.send({"cmd": "new-game", "config": config})
        reply = self.wait_for(
            lambda m: m.get("cmd") == "new-game" or m.get("type") == "error", on_line=on_line
        )
        if reply.get("type") == "error":
            raise InputError("the app refused the game: %s" % reply)
        self.start_us = self.twin.status()["us"]
        return reply

    def run_until(self, t_ms, on_line=None):
        while True:
            left = t_ms - self.now_ms()
            if left < MIN_RUN_MS:
                # Reached. (Less than this is float rounding: emulated time in ns near 1e10
                # cannot grow by a fraction of a ns, so asking for it would ask for ever.)
                break
            self.twin.run_ms(min(left, self.step_ms * 5))
            self._lines(on_line)

    def apply(self, kind, value, hold_ms=None):
        twin = self.twin
        if kind == "grid":
            twin.model("grid", position=value)
        elif kind == "key":
            twin.model("key", key=value, hold_ms=self.hold_ms if hold_ms is None else hold_ms)
        elif kind == "bowl":
            twin.model("bowl", colour=value[0], grams=value[1])
        elif kind == "link":
            self.send(value)

    def play(self, items, on_line=None):
        """Apply every action at its time (the config, at time 0, starts the game). A key is
        held hold_ms, but released KEY_GAP_MS before the same key's next press."""
        holds = key_holds(items, self.hold_ms)
        for i, (t, kind, value) in enumerate(items):
            if kind == "config":
                self.new_game(value, on_line)
                continue
            self.run_until(t, on_line)
            self.apply(kind, value, holds.get(i))
        self._lines(on_line)


KEY_GAP_MS = 100  # a key is up at least this long between two presses


def key_holds(items, hold_ms):
    """{index of a key action: how long it is held}: hold_ms, or less where the same key is
    pressed again sooner (a key still down cannot be pressed again)."""
    holds = {}
    last = {}
    for i, (t, kind, value) in enumerate(items):
        if kind != "key":
            continue
        if value in last:
            j = last[value]
            holds[j] = min(holds[j], max(20, t - items[j][0] - KEY_GAP_MS))
        holds[i] = hold_ms
        last[value] = i
    return holds
