"""protocol.py: the command table, one error reply per bad line, nothing changed."""

from ingboard.link import protocol
from ingboard.link.commands import Protocol
from ingboard.link.protocol import ProtocolError, parse


class Recorder:
    """An app that records the commands it was asked to carry out."""

    def __init__(self):
        self.done = []

    def __getattr__(self, name):
        if not name.startswith("cmd_"):
            raise AttributeError(name)

        def method(cmd):
            self.done.append(cmd)
            return [{"type": "ok", "cmd": cmd["cmd"]}]

        return method


def refused(line):
    try:
        parse(line)
    except ProtocolError as exc:
        return str(exc)
    return None


def test_every_command_of_the_table_parses():
    import json

    required = {"config": {"size": 9, "rules": "aga"}, "name": "undo"}
    for name in protocol.COMMANDS:
        cmd = {"cmd": name}
        for key in protocol.REQUIRED.get(name, ()):
            cmd[key] = "0001.sgf" if name == "read" else required[key]
        got_name, got = parse(json.dumps(cmd))
        assert got_name == name and got == cmd


def test_bad_lines_are_refused_with_a_reason():
    assert "not JSON" in refused("{nope")
    assert "UTF-8" in refused(b"\xff\xfe")
    assert "unknown command" in refused('{"cmd": "format-flash"}')
    assert "JSON object" in refused("[1, 2]")
    assert "unknown field" in refused('{"cmd": "ping", "x": 1}')
    assert "needs name" in refused('{"cmd": "button"}')
    assert "unknown button" in refused('{"cmd": "button", "name": "explode"}')
    assert "1..64" in refused('{"cmd": "raw-scan", "n": 0}')
    assert "1..64" in refused('{"cmd": "raw-scan", "n": true}')
    assert "file name" in refused('{"cmd": "read", "name": "../etc"}')
    assert "longer" in refused("{" + " " * 5000 + "}")


def test_protocol_gives_one_error_and_calls_nothing_for_a_bad_line():
    app = Recorder()
    proto = Protocol(app)
    replies = proto.handle('{"cmd": "button", "name": "explode"}')
    assert len(replies) == 1 and replies[0]["type"] == "error" and replies[0]["cmd"] == "button"
    assert app.done == []
    assert proto.handle('{"cmd": "ping"}') == [{"type": "ok", "cmd": "ping"}]
    assert len(app.done) == 1


def test_refusals_of_the_app_become_error_replies():
    class Refuses:
        def cmd_enrol(self, cmd):
            raise ValueError("bowls are enrolled only before the first move")

    replies = Protocol(Refuses()).handle('{"cmd": "enrol", "B": 1190.5}')
    assert replies == [
        {"type": "error", "cmd": "enrol", "text": "bowls are enrolled only before the first move"}
    ]
    assert Protocol.line({"type": "pong"}) == b'{"type": "pong"}\n'


# Issue 20: a reply goes out in pieces through one fixed buffer (the heap at the end of a long
# game has no 2 KB block for a `plies` reply's line).
MESSAGES = (
    {},
    [],
    {"type": "pong", "version": 1},
    {"type": "plies", "from": 0, "total": 3, "plies": [["B", "D4", 0], ["W", None, 1], []]},
    {"type": "file", "data": 'a"b\\c\n\u00e9\u4e2d' * 100, "nested": {"x": [1.5, True, None]}},
    {"type": "warning", "text": "x" * 1000, "empty": {}, "list": [{}]},
)


def test_the_pieces_of_a_message_are_its_json_text():
    import json

    from ingboard.link.protocol import PIECE, pieces

    for message in MESSAGES:
        got = list(pieces(message))
        assert json.loads("".join(got)) == message
        assert "".join(got) == json.dumps(message)
        assert max(len(p) for p in got) <= 6 * PIECE + 2  # a string piece escaped at worst


def test_the_line_writer_writes_the_line_through_its_small_buffer():
    from ingboard.link.protocol import LineWriter

    for size in (1, 7, 64, 256):
        writer = LineWriter(size)
        for message in MESSAGES:
            out = []
            writer.send(out.append, message)
            assert b"".join(out) == Protocol.line(message)
            assert max(len(x) for x in out) <= size


def test_a_line_cut_short_by_an_error_is_ended_and_the_error_raised():
    from expect import raises
    from ingboard.link.protocol import LineWriter

    out = []

    def write(data):
        if len(out) == 1:
            out.append(None)  # once: the heap ran out while the line was going out
            raise MemoryError("memory allocation failed")
        out.append(data)

    raises(MemoryError, LineWriter(16).send, write, MESSAGES[3])
    assert out[0] == Protocol.line(MESSAGES[3])[:16] and out[-1] == b"\n"

    def starved(data):
        raise MemoryError("memory allocation failed")

    raises(MemoryError, LineWriter(1024).send, starved, MESSAGES[3])  # nothing went out: no line
