"""The SGF the board writes piece by piece (ingrules.sgf.write_sgf: each piece a scan
checkpoint apart) is the same text as game_sgf's, and no piece is long - the last node's
territory and dead stones (a long game's ~300 values) go a value at a time. CPython and
MicroPython."""

from ingrules.board import BLACK, WHITE
from ingrules.game import Game
from ingrules.sgf import game_sgf, write_sgf


def _final(board, n):
    names = [board.sgf(p) for p in board.points if board.get(p) == 0][:n]
    half = len(names) // 2
    return [("TB", names[:half]), ("TW", names[half:]), ("DS", [])]


def _pieces(game, final, notes=None):
    pieces = []
    write_sgf(pieces.append, game, root=[("RE", "W+16")], notes=notes, final=final)
    return pieces


def test_the_last_nodes_markup_is_written_a_value_at_a_time():
    game = Game(19, "ing1991")
    board = game.board
    for i, name in enumerate(("D4", "Q16", "D16", "Q4", "K10")):
        game.play(BLACK if i % 2 == 0 else WHITE, board.parse(name))
    game.pass_move(WHITE)
    game.pass_move(BLACK)
    final = _final(board, 300)
    notes = {2: ["a note"], len(game.plies): ["the last ply's note"]}
    pieces = _pieces(game, final, notes)
    text = "".join(pieces)
    assert text == game_sgf(game, root=[("RE", "W+16")], notes=notes, final=final)
    tb = "TB" + "".join("[%s]" % v for v in final[0][1])
    assert tb in text and len(tb) > 400
    assert "DS" not in text  # an empty list writes no property, as _props has it
    assert max(len(p) for p in pieces) < 100


def test_a_game_without_plies_writes_its_markup_the_same():
    game = Game(9, "ing1991")
    final = _final(game.board, 60)
    text = "".join(_pieces(game, final))
    assert text == game_sgf(game, root=[("RE", "W+16")], final=final)
    assert "TW[" in text
