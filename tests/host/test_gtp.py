"""The GTP client against the real GNU Go (host_tools/gtp.py)."""

import os
import sys

import pytest
from sgfmill import boards

from host_tools.gtp import GtpEngine, GtpError, find_gnugo, format_vertex, parse_vertex

GNUGO = find_gnugo()
if GNUGO is None:
    pytest.fail(
        "GNU Go (gnugo) is not installed; `make setup` installs it (system-deps step)",
        pytrace=False,
    )


def gnugo(*extra):
    return GtpEngine([GNUGO, "--mode", "gtp", "--level", "0", "--seed", "7", *extra], timeout=30)


def test_find_gnugo_returns_an_executable():
    assert os.path.isfile(GNUGO) and os.access(GNUGO, os.X_OK)


def test_vertices_round_trip_in_sgfmill_coordinates():
    assert format_vertex((0, 0)) == "A1"
    assert format_vertex((3, 8)) == "J4"  # GTP columns skip I
    assert format_vertex(None) == "pass"
    for size in (9, 19):
        for row in range(size):
            for col in range(size):
                assert parse_vertex(format_vertex((row, col)), size) == (row, col)
    assert parse_vertex("PASS", 9) is None
    for bad in ("resign", "I5", "A0", "K10", "", "5A"):
        with pytest.raises(ValueError):
            parse_vertex(bad, 9)


def test_genmove_returns_a_legal_vertex_that_the_engine_then_shows():
    board = boards.Board(9)
    with gnugo() as engine:
        assert engine.send("protocol_version") == "2"
        engine.send("boardsize 9")
        engine.send("clear_board")
        for colour, move in (("b", (4, 4)), ("w", (2, 6)), ("b", (6, 2))):
            engine.send("play %s %s" % (colour, format_vertex(move)))
            board.play(move[0], move[1], colour)
        reply = engine.send("genmove w")
        move = parse_vertex(reply, 9)
        assert move is not None, "GNU Go passes on an open 9×9 board"
        assert board.get(*move) is None, "genmove chose an occupied point %s" % reply
        board.play(move[0], move[1], "w")
        assert board.get(*move) == "w", "genmove chose a suicide %s" % reply
        # The engine's own view now agrees with sgfmill's board stone for stone.
        whites = {parse_vertex(v, 9) for v in engine.send("list_stones white").split()}
        blacks = {parse_vertex(v, 9) for v in engine.send("list_stones black").split()}
        assert whites == {p for c, p in board.list_occupied_points() if c == "w"}
        assert blacks == {p for c, p in board.list_occupied_points() if c == "b"}


def test_multiline_response():
    with gnugo() as engine:
        engine.send("boardsize 5")
        text = engine.send("showboard")
        assert text.count("\n") >= 5 and "A B C D E" in text


def test_refused_commands_raise_gtp_error_and_the_engine_goes_on():
    with gnugo() as engine:
        with pytest.raises(GtpError, match="unknown command"):
            engine.send("no_such_command")
        engine.send("boardsize 9")
        with pytest.raises(GtpError, match="invalid"):
            engine.send("play b Z99")
        engine.send("play b E5")
        with pytest.raises(GtpError, match="illegal move"):
            engine.send("play w E5")  # occupied
        assert engine.send("name") == "GNU Go"


def test_a_command_must_be_one_line():
    with gnugo() as engine:
        with pytest.raises(ValueError):
            engine.send("name\nversion")
        with pytest.raises(ValueError):
            engine.send("  ")


def test_killed_engine_raises_gtp_error():
    engine = gnugo()
    assert engine.send("name") == "GNU Go"
    engine.kill()
    with pytest.raises(GtpError, match="exited"):
        engine.send("genmove b")
    engine.close()  # closing a dead engine is fine


def test_engine_dying_while_answering_raises_gtp_error():
    # `quit` makes the engine exit after its reply; the next command finds it gone.
    with gnugo() as engine:
        engine.send("quit")
        with pytest.raises(GtpError, match="exited"):
            engine.send("name")


def test_timeout_raises_gtp_error_and_a_late_reply_is_not_misread():
    # A fake engine in Python: it answers `slow` after 1.5 s and everything else at once.
    script = (
        "import sys, time\n"
        "for line in sys.stdin:\n"
        "    ident, _, cmd = line.strip().partition(' ')\n"
        "    if cmd == 'slow':\n"
        "        time.sleep(1.5)\n"
        "    sys.stdout.write('=%s %s\\n\\n' % (ident, cmd))\n"
        "    sys.stdout.flush()\n"
    )
    with GtpEngine([sys.executable, "-c", script], timeout=5) as engine:
        assert engine.send("hello") == "hello"
        with pytest.raises(GtpError, match="no answer"):  # (not waiting for the 1.5 s answer)
            engine.send("slow", timeout=0.3)
        # The late "= slow" arrives before this answer and is skipped by its id.
        assert engine.send("after") == "after"


def test_missing_executable_raises_gtp_error():
    with pytest.raises(GtpError, match="cannot start"):
        GtpEngine(["/nonexistent/engine", "--mode", "gtp"])
