"""The host commands that let a host check a board (issue 20, issue 17 item 3): `plies` (the
game the board holds, page by page, as the twin's power-cut soak compares it after a restart)
and `mem` (free heap and largest free block after a collection; none on CPython)."""

from app_fakes import new_app
from ingboard.link import commands, protocol
from ingrules.board import BLACK
from test_app import LOG

ROOT = "/tmp/ingboard-test-app-host-checks"


def _app():
    vt, _hw, app = new_app(LOG, ROOT)
    return vt, app


def _reply(app, line):
    replies = app.protocol.handle(line)
    assert len(replies) == 1
    return replies[0]


def test_plies_gives_the_game_the_board_holds():
    vt, app = _app()
    vt.drive(app, 4000, stop=False)
    game = app.tracker.game
    assert len(game.plies) >= 2
    reply = _reply(app, b'{"cmd": "plies"}')
    assert reply["type"] == "plies" and reply["from"] == 0 and reply["total"] == len(game.plies)
    want = []
    for ply in game.plies:
        point = None if ply.point < 0 else game.board.name(ply.point)
        want.append(["B" if ply.color == BLACK else "W", point, ply.kind])
    assert reply["plies"] == want[: protocol.MAX_PLIES]
    later = _reply(app, b'{"cmd": "plies", "from": 1}')
    assert later["from"] == 1 and later["plies"] == want[1 : 1 + protocol.MAX_PLIES]
    past = _reply(app, ('{"cmd": "plies", "from": %d}' % len(want)).encode())
    assert past["plies"] == [] and past["total"] == len(want)


def test_plies_refuses_a_bad_start_with_one_error():
    vt, app = _app()
    reply = _reply(app, b'{"cmd": "plies", "from": -1}')
    assert reply["type"] == "error" and reply["cmd"] == "plies"


def test_mem_gives_the_heap_figures_where_there_is_such_a_heap():
    import gc

    vt, app = _app()
    reply = _reply(app, b'{"cmd": "mem"}')
    assert reply["type"] == "mem"
    if hasattr(gc, "mem_free"):
        assert 0 < reply["largest"] <= reply["free"] and reply["alloc"] > 0
    else:
        assert reply["free"] is None and reply["largest"] is None


def test_a_reply_is_never_dropped_when_events_have_filled_the_queue():
    # A full board seen at a new game raises an alert per stone: more events than the output
    # queue holds. The host's command must still get its reply, after what was queued before it.
    from ingboard.app import app as app_module

    vt, app = _app()
    link = app.hw["link"]
    for i in range(app_module.OUTPUTS + 10):
        app.emit({"t": i, "type": "alert", "code": "stone-extra", "n": i})
    assert app.outputs.dropped == 10
    link.lines.append((vt.now, b'{"cmd": "ping"}\n'))
    vt.drive(app, vt.now + 200, stop=False)
    got = link.messages()
    assert got[-1]["type"] == "pong"
    queued = [m for m in got if m.get("code") == "stone-extra"]
    assert [m["n"] for m in queued] == list(range(app_module.OUTPUTS))
    assert got.index(queued[-1]) < len(got) - 1


class _StarvedLink:
    """A host link on a board whose heap runs out while a reply is going out (once, at the
    `fail_at`th write): what the host reads."""

    def __init__(self, fail_at):
        self.fail_at = fail_at
        self.writes = 0
        self.out = []

    def write(self, data):
        self.writes += 1
        if self.writes == self.fail_at:
            raise MemoryError("memory allocation failed, allocating 2137 bytes")
        self.out.append(bytes(data))

    def lines(self):
        return b"".join(self.out).decode().split("\n")[:-1]


def test_a_reply_that_runs_out_of_memory_answers_the_host_with_an_error():
    # Issue 20: at the end of a 600-ply game on the twin the `plies` reply raised MemoryError
    # and was lost (one warning); the host waited for it in vain.
    vt, app = _app()
    vt.drive(app, 4000, stop=False)
    reply = _reply(app, b'{"cmd": "plies"}')
    assert app.protocol.cmd == "plies"
    # The heap has no block for the whole line (json.dumps fails): the reply goes out in
    # pieces through the link's fixed buffer, here a reply of several writes.
    line = commands.Protocol.line

    def no_block(message):
        if message.get("type") == "plies":
            raise MemoryError("memory allocation failed, allocating 2137 bytes")
        return line(message)  # a short line (the error reply) still fits

    commands.Protocol.line = staticmethod(no_block)
    try:
        _starved_replies(app, reply)
    finally:
        commands.Protocol.line = line


def _starved_replies(app, reply):
    import json

    app._writer = protocol.LineWriter(16)
    for fail_at in (1, 2):  # before anything went out; in the middle of the line
        link = _StarvedLink(fail_at)
        app._reply(link, reply, app.protocol.cmd)
        lines = link.lines()
        assert len(lines) == fail_at  # a line cut short is ended: the error is a line of its own
        error = json.loads(lines[-1])
        assert error["type"] == "error" and error["cmd"] == "plies"
        assert "MemoryError" in error["text"]
    link = _StarvedLink(0)
    app._reply(link, reply, "plies")  # no failure: the reply itself, in the buffer's pieces
    assert [json.loads(x) for x in link.lines()] == [reply]
    assert max(len(x) for x in link.out) <= len(app._writer.buf)


def test_a_long_line_goes_out_in_slices_and_a_cut_one_is_ended():
    # Issue 20: a long event or reply (the count's plan, a `plies` reply) is one json.dumps
    # written 512 bytes at a time, the scan checkpoint between; a write that fails in the
    # middle ends the line, so the host reads one bad line, then the error reply.
    import json

    vt, app = _app()
    vt.drive(app, 1000, stop=False)
    checkpoints = [0]

    def checkpoint():
        checkpoints[0] += 1

    app.scan_if_due = checkpoint
    long_reply = {"type": "plies", "from": 0, "total": 300, "text": "x" * 1300}
    link = _StarvedLink(0)
    app._reply(link, long_reply, "plies")
    assert [json.loads(x) for x in link.lines()] == [long_reply]
    assert [len(x) for x in link.out] == [512, 512, len(link.out[2])] and checkpoints[0] == 3
    link = _StarvedLink(2)
    app._reply(link, long_reply, "plies")
    lines = link.lines()
    assert len(lines) == 2 and len(lines[0]) == 512  # the first slice, ended
    error = json.loads(lines[1])
    assert error["type"] == "error" and error["cmd"] == "plies" and "MemoryError" in error["text"]


def _link_waits(app, vt, until):
    # The link task alone, stepped in virtual time: [(when it looked, how long it then slept)].
    task = app.link_task()
    waits = []
    while vt.now < until:
        ms = task.send(None)
        waits.append((vt.now, ms))
        vt.now += ms
    return waits


def test_the_link_is_looked_at_every_link_period_and_a_host_answered_within_one():
    # The link task's period (40 ms, twice the keys'): a host's line is answered at the next
    # look, an event goes out at the next look.
    vt, app = _app()
    app.outputs.clear()
    link_ms = app.task_periods()[5]
    assert link_ms == 40
    waits = _link_waits(app, vt, 1000)
    assert {ms for _t, ms in waits} == {link_ms}
    link = app.hw["link"]
    asked = vt.now + 7
    link.lines.append((asked, b'{"cmd": "ping"}\n'))
    waits = _link_waits(app, vt, vt.now + 200)
    answered = next(t for t, _ms in waits if t >= asked)
    assert link.messages()[-1]["type"] == "pong"
    assert answered - asked <= link_ms
    app.emit({"t": vt.now, "type": "alert", "code": "stone-extra"})
    assert app.hw["link"].messages()[-1]["type"] == "pong"  # queued, not yet out
    _link_waits(app, vt, vt.now + 1)  # one look
    assert app.hw["link"].messages()[-1]["code"] == "stone-extra"
