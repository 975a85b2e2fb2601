"""The host link as the board's program holds it: `Protocol(app).handle(line)` -> the replies to
one line, and the app's side (`HostLink`, a mixin of App): the frequent commands and the lines
written to the host.

A command goes to the app's `cmd_<name>(cmd)` method (name with '-' as '_'): the frequent
ones (ping, state, new-game, button, mem, cpu: `HostLink`). Where the app has none, to
host_commands.py's `cmd_<name>(app, cmd)`: the rare ones, loaded for the command and dropped
after (gc_policy), so their code is not heap the game keeps. protocol.py parses and writes the
lines. Events and replies go out a slice at a time with the scan checkpoint between, and a reply
that cannot be written still gets the host an answer (an error naming the command).
"""

import json

from ingrules.board import BLACK
from micropython import const

from ingboard import gc_policy
from ingboard.link import protocol
from ingboard.link.protocol import ProtocolError, error, parse

_LINK_SLICE = const(512)  # bytes of an event line written between two scan checkpoints


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
        self._writer = protocol.LineWriter()  # the link's one line buffer (allocated once)

    def cmd_ping(self, cmd):
        return [{"type": "pong", "version": protocol.VERSION}]

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
            link.write(Protocol.line(protocol.error(text, cmd)))
        except Exception as exc:  # noqa: BLE001 (a message that cannot be written)
            self.report("link", exc)

    def _send_queued(self, link):
        message = self.outputs.get()
        while message is not None:
            self._send(link, message)
            self.scan_if_due()  # a burst of events (the count's) is many writes
            message = self.outputs.get()
