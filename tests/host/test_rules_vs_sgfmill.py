"""The firmware's rules core against sgfmill's board, on every game of the generated corpus.

Each corpus game (tests/corpus.py: a seeded random opening, then GNU Go self-play) is replayed
through `ingrules.game.Game` and through `sgfmill.boards.Board`; the whole boards, the
captured stones and, at the end, the area count must agree after every move. Under "chinese"
(GNU Go's own rules: no suicide, simple ko) every move must be legal; under every other ruleset
the positions must agree up to the first illegal move, which may only be a ko-type refusal.
"""

import os

import corpus as corpus_module
import pytest
from sgfmill import boards

import host_tools  # noqa: F401  (puts firmware/ on sys.path)

# isort: split
from ingrules import rulesets, scoring
from ingrules.game import ENDED, PASS, Game, IllegalMove

COLOR = {"b": 1, "w": 2}
NAMES = [spec[0] for spec in corpus_module.game_specs()]
KO_REASONS = ("ko", "superko", "recycle")


@pytest.fixture(scope="module")
def games(corpus):
    loaded = {}
    for path in corpus:
        game = corpus_module.load_game(path)
        loaded[game["name"]] = game
    assert sorted(loaded) == sorted(NAMES), "the corpus does not hold the planned games"
    return loaded


def sgfmill_rows(board):
    """sgfmill's board in the firmware's rows() layout: top line first, '.', 'B', 'W'."""
    size = board.side
    return [
        "".join(".BW"[" bw".index(board.get(row, col) or " ")] for col in range(size))
        for row in range(size - 1, -1, -1)
    ]


def stones_of(board, colour):
    return {point for c, point in board.list_occupied_points() if c == colour}


class Replay:
    """What happened when one game was replayed under one ruleset."""

    def __init__(self, game, rules):
        self.name = game["name"]
        self.rules = rules
        self.moves = len(game["moves"])
        self.compared = 0  # moves compared (all of them when the game is legal throughout)
        self.illegal = None  # (move number, colour, move, reason) of the first illegal move
        self.ended_at = None  # move number after which the rules core ended the game
        self.game = None
        self.sgfmill = None

    @property
    def legal(self):
        return self.illegal is None


def replay(game, rules):
    """Replay `game` under `rules`, asserting agreement with sgfmill after every move."""
    size = game["size"]
    result = Replay(game, rules)
    g = Game(size, rules, komi=game["komi"])
    sb = boards.Board(size)
    result.game, result.sgfmill = g, sb
    hashes = {}
    for n, (colour, move) in enumerate(game["moves"], 1):
        where = "%s under %s, move %d (%s %s)" % (game["name"], rules, n, colour, move)
        if g.phase == ENDED:
            # Ing/AGA/Tromp-Taylor: two passes ended the game; nothing more to compare.
            result.ended_at = n - 1
            break
        color = COLOR[colour]
        if move is None:
            ply = g.pass_move(color)
            assert ply.captured == ()
        else:
            row, col = move
            try:
                ply = g.play(color, g.board.index(col, row))
            except IllegalMove as e:
                result.illegal = (n, colour, move, e.reason)
                break
            opponent = "w" if colour == "b" else "b"
            before = stones_of(sb, opponent)
            sb.play(row, col, colour)
            removed = before - stones_of(sb, opponent)
            captured = {g.board.col_row(p)[::-1] for p in ply.captured}
            assert captured == removed, "%s: captured %s, sgfmill removed %s" % (
                where,
                sorted(captured),
                sorted(removed),
            )
            assert len(ply.captured) == len(captured), where + ": a stone captured twice"
            assert ply.self_removed == (), where + ": GNU Go never plays suicide"
        rows = g.board.rows()
        assert rows == sgfmill_rows(sb), "%s: positions differ\nfirmware:\n%s\nsgfmill:\n%s" % (
            where,
            "\n".join(rows),
            "\n".join(sgfmill_rows(sb)),
        )
        # The position hash is a function of the position.
        key = tuple(rows)
        assert hashes.setdefault(key, g.board.hash) == g.board.hash, where + ": hash differs"
        result.compared = n
    return result


@pytest.mark.parametrize("name", NAMES)
def test_chinese_replay_equals_sgfmill_after_every_move(games, name):
    game = games[name]
    result = replay(game, "chinese")
    assert result.legal, "%s: move %d (%s %s) refused under chinese: %s" % (
        (name,) + result.illegal
    )
    assert result.compared == len(game["moves"]), "%s: stopped after move %d of %d" % (
        name,
        result.compared,
        len(game["moves"]),
    )
    # Final area: firmware's scoring.area vs sgfmill's area_score (Black area minus White's).
    black, white, neutral = scoring.area(result.game.board)
    assert black - white == result.sgfmill.area_score(), name
    assert black + white + neutral == game["size"] ** 2, name


def test_corpus_has_variety(games):
    sizes = [g["size"] for g in games.values()]
    assert {s: sizes.count(s) for s in set(sizes)} == {9: 30, 13: 14, 19: 6}
    # Real games: stones are captured, ko shapes arise (one stone taking one stone and left
    # in atari), and games end with two passes or a resignation.
    captures = ko_captures = finished = 0
    for game in games.values():
        g = replay(game, "chinese").game
        for ply in g.plies:
            captures += len(ply.captured)
        board = Game(game["size"], "chinese")
        for ply in g.plies:
            if ply.point == PASS:
                board.pass_move(ply.color)
                continue
            board.play(ply.color, ply.point)
            if len(ply.captured) == 1 and len(board.board.chain(ply.point)) == 1:
                ko_captures += board.board.liberties(ply.point) == 1
        moves = game["moves"]
        if moves[-1][1] is None and moves[-2][1] is None or "+R" in (game["result"] or ""):
            finished += 1
    assert captures > 100
    assert ko_captures >= 10
    assert finished >= 45


def test_corpus_generation_is_deterministic(games, tmp_path):
    # The same seeds give the same game, byte for byte (one 9×9 and one 13×13 game).
    for spec in (corpus_module.game_specs()[-1], corpus_module.game_specs()[6]):
        path = corpus_module._write_game(str(tmp_path), spec, corpus_module.find_gnugo())
        with open(path, "rb") as f, open(games[spec[0]]["path"], "rb") as g:
            assert f.read() == g.read(), spec[0]


def test_missing_gnugo_fails_with_the_setup_hint(monkeypatch):
    monkeypatch.setattr(corpus_module, "find_gnugo", lambda: None)
    with pytest.raises(corpus_module.CorpusError, match="make setup"):
        corpus_module.generate(folder="/nonexistent/never-created")


@pytest.mark.parametrize("rules", rulesets.NAMES)
def test_every_ruleset_agrees_with_sgfmill_up_to_the_first_illegal_move(games, rules):
    legal = 0
    refusals = []
    for name in NAMES:
        result = replay(games[name], rules)
        if result.legal:
            legal += 1
            continue
        n, colour, move, reason = result.illegal
        refusals.append("%s move %d (%s %s): %s" % (name, n, colour, move, reason))
        # GNU Go plays simple ko, no suicide: only the superko / Ing ko rules may refuse it.
        assert reason in KO_REASONS, "%s: %s" % (rules, refusals[-1])
    print("\n%s: %d of %d corpus games entirely legal" % (rules, legal, len(NAMES)))
    for line in refusals:
        print("  refused: " + line)
    # Simple-ko rulesets accept every GNU Go game (it plays by those rules itself).
    if rulesets.get(rules).ko == rulesets.get("chinese").ko:
        assert legal == len(NAMES), refusals


def test_coordinate_conventions_agree():
    # sgfmill (row, col) from the bottom-left, the firmware index(col, row): an asymmetric
    # position must come out the same in both row layouts.
    sb = boards.Board(9)
    g = Game(9, "chinese")
    for colour, (row, col) in (("b", (0, 1)), ("w", (2, 7)), ("b", (8, 0))):
        sb.play(row, col, colour)
        g.play(COLOR[colour], g.board.index(col, row))
    rows = sgfmill_rows(sb)
    assert rows[-1] == ".B......." and rows[-3] == ".......W." and rows[0] == "B........"
    assert g.board.rows() == rows


def test_replay_reports_the_first_illegal_move_and_stops_there(games):
    # The replay is not vacuous: a game with a play on an occupied point is caught there.
    game = dict(games[NAMES[-1]])
    moves = list(game["moves"][:6])
    colour = "b" if len(moves) % 2 == 0 else "w"
    occupied = next(m for _c, m in moves if m is not None)
    game["moves"] = moves + [(colour, occupied)] + list(game["moves"][6:])
    result = replay(game, "chinese")
    assert result.illegal == (7, colour, occupied, "occupied")
    assert result.compared == 6


def test_corpus_files_are_cached_under_the_version_key(corpus):
    folder = os.path.dirname(corpus[0])
    assert os.path.basename(folder) == corpus_module.version_key()
    assert all(os.path.dirname(p) == folder for p in corpus)
    assert corpus == sorted(corpus)
