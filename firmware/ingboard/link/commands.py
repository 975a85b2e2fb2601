"""The host's commands dispatched: `Protocol(app).handle(line)` -> the replies to one line.

A command goes to the app's `cmd_<name>(cmd)` method (name with '-' as '_'): the frequent ones
(ping, state, new-game, button, mem). Where the app has none, to host_commands.py's
`cmd_<name>(app, cmd)`: the rare ones, loaded for the command and dropped after (gc_policy), so
their code is not heap the game keeps. protocol.py parses and writes the lines.
"""

import json

from ingboard import gc_policy
from ingboard.link.protocol import ProtocolError, error, parse


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
