"""The result face after a count (app/standalone.py, faces/board_face.py): made once for a count,
painted in pieces small enough for the scan (issue 32: a long game's last scan was held up
28-39 ms by the face's first piece on the twin). The count is the rules' own (Ing 1991 Art. 9,
"Counting"), of a real 19x19 position."""

import framebuf
from ingboard.app.standalone import Standalone
from ingboard.faces import board_face
from ingboard.tracking.tracker import Tracker
from ingrules.board import BLACK, WHITE
from ingrules.counting import count_game
from test_standalone import StubApp


class App(StubApp):
    """test_standalone's stand-in for the app, with the game's tracker."""

    def __init__(self, tracker):
        StubApp.__init__(self, "/tmp/ingboard-test-result-face")
        self.tracker = tracker
        self.relay = None
        self.hw = {}


def _fb():
    buf = bytearray(128 * 64 // 8)
    return buf, framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)


# Black walls off the left half, White the right, both with stones scattered in their own area:
# a full board's mini-board, white stones on most rows (the widest pieces to draw).
def _ended_game():
    tracker = Tracker({"size": 19, "rules": "ing1991"})
    game = tracker.game
    board = game.board
    for row in range(1, 20):
        game.play(BLACK, board.parse("J%d" % row))  # Black's wall (column J)
        game.play(WHITE, board.parse("K%d" % row))  # White's wall beside it
    for row in (3, 9, 15):
        game.play(BLACK, board.parse("C%d" % row))
        game.play(WHITE, board.parse("Q%d" % row))
    game.pass_move(BLACK)
    game.pass_move(WHITE)
    count, plan = count_game(game)
    game._end_by_count()
    tracker.counted = count
    tracker.plan = plan
    return tracker


def _counting_rows(board):
    calls = [0]
    rows = board.rows

    def counted_rows():
        calls[0] += 1
        return rows()

    board.rows = counted_rows
    return calls


def test_the_result_face_is_made_once_for_a_count_not_at_every_look():
    tracker = _ended_game()
    s = Standalone(App(tracker))
    calls = _counting_rows(tracker.game.board)
    kind, what = s._face(1000)
    assert kind == "result" and calls[0] == 1
    for t in (1250, 1500, 60000):
        assert s._face(t) == (kind, what) and s._face(t)[1] is what
    assert calls[0] == 1
    # The rows are the counted position's, as board_face draws them (one string).
    assert what[2] == "".join(tracker.game.board.rows())
    # Another count (a dispute counted again) is another face.
    tracker.counted = dict(tracker.counted)
    assert s._face(70000)[1] is not what
    # A new game's clock face drops the last count's face.
    tracker.counted = None
    assert s._face(80000) == ("clock", None) and s._result is None


def test_the_result_face_is_painted_in_pieces_the_first_draws_nothing_and_the_frame_is_whole():
    tracker = _ended_game()
    s = Standalone(App(tracker))
    buf, fb = _fb()
    pieces = s.paint(fb, 1, 1000)
    first = next(pieces)
    assert first == (0, 0) and not any(buf)  # the face's making: a piece of its own
    n = 1 + sum(1 for _ in pieces)
    # The same frame as the face drawn whole, in a piece per board row and more.
    whole, wfb = _fb()
    board_face.result(wfb, tracker.counted, tracker.plan, "".join(tracker.game.board.rows()))
    assert buf == whole and any(buf)
    assert n >= 19 + 2
    # Painted again with nothing changed: nothing drawn, no piece.
    assert list(s.paint(fb, 1, 2000)) == []


def test_the_mini_board_yields_after_every_row_and_draws_the_same_frame():
    tracker = _ended_game()
    rows = "".join(tracker.game.board.rows())
    for size, text in ((19, rows), (9, "B" * 81), (13, "W" * 169)):
        buf, fb = _fb()
        steps = sum(1 for _ in board_face.mini_board_steps(fb, text))
        whole, wfb = _fb()
        board_face.mini_board(wfb, text)
        assert steps == size, (size, steps)
        assert buf == whole and any(buf)
