"""The host link as the board's program holds it: `Protocol(app).handle(line)` -> the replies to
one line, and the app's side (`HostLink`, a mixin of App): the frequent commands and the lines
written to the host.

A command goes to the app's `cmd_<name>(cmd)` method (name with '-' as '_'): the frequent
ones (ping, state, new-game, button, mem, cpu: `HostLink`). Where the app has none, to
host_commands.py's `cmd_<name>(app, cmd)`: the rare ones, loaded for the command and dropped
after (gc_policy), so their code is not heap the game keeps. protocol.py parses the lines, loaded
with the first line a host sends (and kept: a host sends many); this module writes them. Events
and replies go out a slice at a time with the scan checkpoint between, and a reply that cannot
be written still gets the host an answer (an error naming the command), in pieces through a
fixed buffer where the heap has no block for the line (`pieces`, `LineWriter`).
"""

import json

from ingrules.board import BLACK
from micropython import const

from ingboard import gc_policy

_LINK_SLICE = const(512)  # bytes of an event line written between two scan checkpoints
PIECE = const(128)  # characters of a long string value in one piece of a line (pieces())


def _rare(attr, app, cmd):
    # A command the app has no method for: host_commands.py's function of that name, loaded
    # for this command and dropped after (issue 17: heap the game keeps on the stock image).
    from ingboard.link import host_commands

    try:
        return getattr(host_commands, attr)(app, cmd)
    finally:
        gc_policy.drop("ingboard.link.host_commands")


class Protocol:
    """Commands in, replies out, against an app with `cmd_<name>(cmd) -> [replies]` methods
    (name with '-' as '_'), or host_commands.py's `cmd_<name>(app, cmd)` where the app has
    none; a command refuses with ValueError or TypeError, changing nothing."""

    def __init__(self, app):
        self.app = app
        self.cmd = None  # the name of the last line's command (None if it had none)

    def handle(self, line):
        """The replies (dicts) to one line."""
        # The parser and its tables: loaded by a host's first line (see the module docstring).
        from ingboard.link.protocol import ProtocolError, parse

        self.cmd = None
        try:
            name, cmd = parse(line)
        except ProtocolError as exc:
            self.cmd = exc.cmd
            return [error(str(exc), exc.cmd)]
        self.cmd = name
        checkpoint = getattr(self.app, "scan_if_due", None)
        if checkpoint is not None:
            checkpoint()  # the parse (a game's settings: ~25 ms of the RP2040) a piece of its own
        attr = "cmd_" + name.replace("-", "_")
        method = getattr(self.app, attr, None)
        try:
            if method is not None:
                return method(cmd)
            return _rare(attr, self.app, cmd)
        except (ValueError, TypeError, KeyError) as exc:
            return [error(str(exc) or exc.__class__.__name__, name)]
        except Exception as exc:  # noqa: BLE001 (no host line may end the link task)
            return [error("%s: %s" % (exc.__class__.__name__, exc), name)]

    @staticmethod
    def line(message):
        """One message as the bytes of a line."""
        return (json.dumps(message) + "\n").encode()


class HostLink:
    """The frequent commands and the lines out of an App (a mixin: uses the app's `tracker`,
    `number`, `inputs`, `outputs`, `errors`, `new_game()`, `report()`, `scan_if_due()`,
    `_input()`)."""

    def _init_host_link(self):
        self.protocol = Protocol(self)
        self._writer = LineWriter()  # the link's one line buffer (allocated once)

    def cmd_ping(self, cmd):
        from ingboard.link.protocol import VERSION  # (loaded: the line was parsed)

        return [{"type": "pong", "version": VERSION}]

    def cmd_state(self, cmd):
        game = self.tracker.game
        return [
            {
                "type": "state",
                "game": self.number,
                "phase": game.phase,
                "to_play": "B" if game.to_play == BLACK else "W",
                "plies": len(game.plies),
                "result": game.result,
                "dropped": self.inputs.dropped + self.outputs.dropped,
            }
        ]

    def cmd_new_game(self, cmd):
        # new_game() refuses what the tracker cannot play before anything changes.
        return [{"type": "ok", "cmd": "new-game", "game": self.new_game(cmd["config"])}]

    def cmd_button(self, cmd):
        self._input(self.BUTTON, cmd["name"])
        return []

    def cmd_mem(self, cmd):
        reply = gc_policy.heap_figures(self.scan_if_due)
        reply["type"] = "mem"
        return [reply]

    def cmd_cpu(self, cmd):
        # Frequent where a host watches the load (the bench's brisk game asks two or three
        # times at every capture): as a rare command each was an import of host_commands.py
        # and its code, dropped after, garbage again.
        reply = self.cpu_stats()
        reply["type"] = "cpu"
        if cmd.get("reset"):
            self.cpu_reset()
        return [reply]

    def _write(self, link, message):
        # One json.dumps (fast, in C), written a slice at a time with the scan checkpoint
        # between (a long line - the count's plan, a `plies` reply - in one write held up a
        # scan by 71 ms at the end of a long game on the twin); if the heap has no block for
        # the line, it goes out in pieces through the link's fixed buffer (issue 20: at the end
        # of a long game no 2 KB block may be left). The pieces are made in Python: a reply
        # made that way took 70-480 ms of the RP2040 there, so they are only the fallback.
        try:
            data = Protocol.line(message)
        except MemoryError:
            data = None
        if data is None:
            self._writer.send(link.write, message)
        elif len(data) <= _LINK_SLICE:
            link.write(data)
        else:
            sent = 0
            try:
                for i in range(0, len(data), _LINK_SLICE):
                    link.write(data[i : i + _LINK_SLICE])
                    sent += 1
                    self.scan_if_due()
            except Exception:
                if sent:
                    link.write(b"\n")  # a line cut short is ended: never glued to the next
                raise

    def _send(self, link, message):
        # An event (its errors reported, never raised).
        if link is None:
            return
        try:
            self._write(link, message)
        except Exception as exc:  # noqa: BLE001 (a message that cannot be written)
            if message.get("type") == "warning":  # no loop of warnings on warnings
                self.errors["link"] = self.errors.get("link", 0) + 1
            else:
                self.report("link", exc)

    def _reply(self, link, reply, cmd):
        # A reply to the host's command `cmd`; if it cannot be written, the host still gets an
        # answer - an error reply naming the command - instead of waiting for one that never
        # comes (issue 20).
        if link is None:
            return
        try:
            self._write(link, reply)
            return
        except Exception as exc:  # noqa: BLE001 (the host must get an answer)
            text = "reply lost: %s: %s" % (exc.__class__.__name__, exc)
        try:
            link.write(Protocol.line(error(text, cmd)))
        except Exception as exc:  # noqa: BLE001 (a message that cannot be written)
            self.report("link", exc)

    def _send_queued(self, link):
        message = self.outputs.get()
        while message is not None:
            self._send(link, message)
            self.scan_if_due()  # a burst of events (the count's) is many writes
            message = self.outputs.get()


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
