"""`ingboard simulate`: realistic session logs from game records, checked by an independent eye.

The reference here does not use the firmware's Board: positions come from sgfmill's own board,
and the log is read back with the firmware's session reader (which must accept it).
"""

import os
import random
import subprocess
import sys

from ingboard.records import session_read
from sgfmill import boards, sgf

from host_tools import ROOT
from host_tools import simulate as sim

COLS = "ABCDEFGHJKLMNOPQRST"
FLICKER_MAX_MS = 60  # one scan is at most 50 ms (20 Hz)

# A 9x9 game with a three-stone capture (A3 takes A1 B1 A2), a ko (E5 takes D5; White may not
# retake at once; W D5 at move 18 retakes legally after a threat) and a single-stone capture.
KO_GAME = (
    "B C5,W F5,B D6,W E6,B D4,W E4,B B2,W A1,B C1,W B1,B H8,W A2,B A3,W D5,B E5,W G2,B H2,W D5,"
    "B J9,W A9"
)


def rc(name, size):
    """(row, col) in sgfmill's convention (row 0 at the bottom) for a point name like "Q16"."""
    return int(name[1:]) - 1, COLS.index(name[0])


def name_of(row, col):
    return COLS[col] + str(row + 1)


def make_sgf(size, moves, setup=(), **props):
    """SGF bytes: moves "B C5" / "W pass"; setup [("b", "C3")]; root properties as given."""
    game = sgf.Sgf_game(size)
    root = game.get_root()
    for key, value in props.items():
        root.set(key, value)
    if setup:
        black = {rc(p, size) for c, p in setup if c == "b"}
        white = {rc(p, size) for c, p in setup if c == "w"}
        root.set_setup_stones(black, white)
    for text in moves:
        color, where = text.split()
        node = game.extend_main_sequence()
        node.set_move(color.lower(), None if where == "pass" else rc(where, size))
    return game.serialise()


def random_game(size, count, seed):
    """A legal random game (no position repeats) with plenty of captures."""
    rng = random.Random(seed)
    board = boards.Board(size)
    seen = {board.list_occupied_points().__repr__()}
    moves = []
    color = "b"
    for _ in range(count):
        mine = sum(1 for col, _pt in board.list_occupied_points() if col == color)
        if mine >= 30:  # a 9x9 set has 40 stones a colour (Ing: (points - 1) / 2)
            moves.append("%s pass" % color.upper())
            color = "w" if color == "b" else "b"
            continue
        empties = [(r, c) for r in range(size) for c in range(size) if board.get(r, c) is None]
        rng.shuffle(empties)
        played = False
        for r, c in empties:
            trial = board.copy()
            trial.play(r, c, color)
            if trial.get(r, c) != color:
                continue  # self-capture: keep the game ordinary
            key = repr(sorted(trial.list_occupied_points()))
            if key in seen:
                continue
            board = trial
            seen.add(key)
            moves.append("%s %s" % (color.upper(), name_of(r, c)))
            played = True
            break
        if not played:
            moves.append("%s pass" % color.upper())
        color = "w" if color == "b" else "b"
    return moves


def positions(size, moves, setup=()):
    """Expected rows after each move (top line first) and the stones each move captured."""
    board = boards.Board(size)
    for c, p in setup:
        board.play(*rc(p, size), c)
    out = []
    for text in moves:
        color, where = text.split()
        color = color.lower()
        before = {pt: col for col, pt in board.list_occupied_points()}
        if where != "pass":
            board.play(*rc(where, size), color)
        after = {pt: col for col, pt in board.list_occupied_points()}
        captured = {pt: col for pt, col in before.items() if pt not in after}
        rows = []
        for r in range(size - 1, -1, -1):
            rows.append("".join(".BW"[" bw".index(board.get(r, c) or " ")] for c in range(size)))
        out.append((color.upper(), where, rows, captured))
    return out


class Seen:
    """The log as an observer sees it: scans over time, presses, bowl readings."""

    def __init__(self, text, size):
        self.records = session_read.read_text(text)
        self.config = self.records[0].payload
        self.scans = [(r.t_ms, r.payload) for r in self.records if r.kind == "scan"]
        self.presses = [(r.t_ms, r.payload) for r in self.records if r.kind == "press"]
        self.size = size

    def point(self, i, r, c):
        return self.scans[i][1][r][c]

    def steady_at(self, t):
        """The board at time t, each point's one-scan flicker ignored."""
        times = [s[0] for s in self.scans]
        i = max(j for j in range(len(times)) if times[j] <= t)
        rows = []
        for r in range(self.size):
            chars = []
            for c in range(self.size):
                v = self.point(i, r, c)
                a = i
                while a > 0 and self.point(a - 1, r, c) == v:
                    a -= 1
                b = i
                while b + 1 < len(self.scans) and self.point(b + 1, r, c) == v:
                    b += 1
                end = times[b + 1] if b + 1 < len(times) else times[b] + 10**6
                if a > 0 and b + 1 < len(times) and end - times[a] <= FLICKER_MAX_MS:
                    before = self.point(a - 1, r, c)
                    if before == self.point(b + 1, r, c):
                        v = before
                chars.append(v)
            rows.append("".join(chars))
        return rows


def check_by_eye(text, size, moves, setup=(), exact=False):
    """At every press the steady board is the game after that move, except captured stones not
    yet lifted and the next stone when the opponent played before the press. Returns
    (not-yet-lifted stones seen at presses, early moves seen)."""
    seen = Seen(text, size)
    expected = positions(size, moves, setup)
    n_moves = len(expected)
    # Passes the simulator adds so that the game ends with two.
    extra = len(seen.presses) - n_moves
    assert 0 <= extra <= 2
    assert [c for _t, c in seen.presses][:n_moves] == [
        1 if color == "B" else 2 for color, _w, _r, _c in expected
    ]
    captured_so_far = {}
    late = early = 0
    for k, (t, _color) in enumerate(seen.presses[:n_moves]):
        color, where, rows, captured = expected[k]
        for pt, col in captured.items():
            captured_so_far[pt] = col.upper()
        got = seen.steady_at(t)
        nxt = expected[k + 1] if k + 1 < n_moves else None
        for r in range(size):
            for c in range(size):
                g, e = got[r][c], rows[r][c]
                if g == e:
                    continue
                pt = (size - 1 - r, c)
                assert not exact, "move %d: %s is %s, expected %s" % (k + 1, name_of(*pt), g, e)
                if e == "." and captured_so_far.get(pt) == g:
                    late += 1
                    continue
                if nxt and e == "." and nxt[1] == name_of(*pt) and g == nxt[0]:
                    early += 1
                    continue
                raise AssertionError(
                    "press %d (%s %s): %s reads %r, the game has %r"
                    % (k + 1, color, where, name_of(*pt), g, e)
                )
    # At the end every captured stone has been put away.
    assert seen.steady_at(seen.scans[-1][0]) == expected[-1][2]
    return late, early


def test_log_parses_and_matches_the_game_by_eye_at_every_noise_level():
    moves = random_game(9, 110, seed=4)
    data = make_sgf(9, moves, KM=7.5)
    game = sim.load_game(data)
    late_total = 0
    for noise in sim.NOISE_LEVELS:
        for seed in (1, 2, 3):
            result = sim.simulate(game, noise, seed)
            late, _early = check_by_eye(result.text(), 9, moves, exact=noise == "none")
            late_total += late
    # Typical and harsh people do leave captured stones on the board past the press.
    assert late_total > 0


def test_config_comes_from_the_sgf():
    data = make_sgf(13, ["B D4", "W K10"], KM=5.5, RU="AGA", PB="Go Seigen", PW="Kitani", TM=1800)
    result = sim.simulate(sim.load_game(data), "none", 0)
    cfg = session_read.read_text(result.text())[0].payload
    # The set's weight, enrolled in an earlier game (Ing 1991 Art. 9 "Counting" (1)): 84 stones
    # of 6.5-7 g each.
    bowls = cfg.pop("bowls")
    assert all(84 * 6 < bowls[c]["w180_g"] < 84 * 7.5 for c in "BW")
    assert cfg == {
        "size": 13,
        "rules": "aga",
        "komi": 5.5,
        "time": {"system": "ing-pp", "basic_s": 1800},
        "players": {"B": "Go Seigen", "W": "Kitani"},
    }
    cfg = sim.simulate(sim.load_game(make_sgf(9, ["B E5"])), "none", 0).config
    assert sorted(cfg.pop("bowls")) == ["B", "W"]
    assert cfg == {"size": 9, "rules": "ing1991", "time": {"system": "ing-pp", "basic_s": 3600}}
    assert sim.load_game(make_sgf(9, [], KM=8)).config()["komi"] == 8
    assert isinstance(sim.load_game(make_sgf(9, [], KM=8)).config()["komi"], int)
    for ru, ours in (
        ("GOE", "ing1991"),
        ("Japanese", "japanese"),
        ("Chinese", "chinese"),
        ("NZ", "nz"),
        ("Tromp-Taylor", "tromp-taylor"),
        ("ing1996", "ing1996"),
        ("simplified-ing", "simplified-ing"),
    ):
        assert sim.load_game(make_sgf(9, [], RU=ru)).rules == ours
    game = sim.load_game(make_sgf(9, [], RU="Korean"))
    assert game.rules == "ing1991" and "Korean" in game.notes[0]


def test_setup_stones_and_handicap():
    setup = [("b", "C3"), ("b", "G7"), ("w", "E5")]
    moves = ["W C7", "B G3", "W D4"]
    data = make_sgf(9, moves, setup=setup, HA=2)
    result = sim.simulate(sim.load_game(data), "typical", 5)
    assert result.config["handicap"] == 2 and result.config["handicap_style"] == "free"
    check_by_eye(result.text(), 9, moves, setup=setup)
    seen = Seen(result.text(), 9)
    # The setup stones are on the board before the first press, placed one by one.
    first_press = seen.presses[0][0]
    before = [rows for t, rows in seen.scans if t < first_press]
    counts = sorted({sum(row.count("B") + row.count("W") for row in rows) for rows in before})
    assert counts[:4] == [0, 1, 2, 3]
    # Ing-style handicap: Black plays the stones, White passes.
    data = make_sgf(9, ["B C3", "W pass", "B G7", "W E5"], HA=2)
    assert sim.load_game(data).config()["handicap_style"] == "ing-plays"


def test_game_ends_with_two_passes():
    for moves, added in (
        (["B E5", "W C3"], 2),
        (["B E5", "W pass"], 1),
        (["B E5", "W pass", "B pass"], 0),
    ):
        game = sim.load_game(make_sgf(9, moves))
        assert sum(1 for m in game.moves if m.appended) == added
        result = sim.simulate(game, "none", 0)
        seen = Seen(result.text(), 9)
        assert len(seen.presses) == len(moves) + added
        # A pass is a press with no new stone: the board did not change since the last press.
        assert seen.steady_at(seen.presses[-1][0]) == seen.steady_at(seen.presses[-3][0] + 1)
        colors = [c for _t, c in seen.presses]
        assert colors[-1] != colors[-2]


def test_timing_is_realistic():
    moves = random_game(9, 60, seed=8)
    game = sim.load_game(make_sgf(9, moves))
    for noise in ("typical", "harsh"):
        result = sim.simulate(game, noise, 11)
        seen = Seen(result.text(), 9)
        period = result.scan_ms
        assert 20 <= period <= 50
        times = [t for t, _rows in seen.scans]
        assert all(t % period == 0 for t in times)
        # Only changed scans are written.
        assert all(a[1] != b[1] for a, b in zip(seen.scans, seen.scans[1:]))
        # Presses come 150-900 ms after the stone showed (more if the opponent played early).
        for move in result.moves:
            if move["visible_ms"] is not None:
                delay = move["press_ms"] - move["visible_ms"]
                assert 150 <= delay <= 15000, delay
        gaps = [b[0] - a[0] for a, b in zip(seen.presses, seen.presses[1:])]
        assert 1000 < sorted(gaps)[len(gaps) // 2] < 20000  # a few seconds per move
        assert result.duration_ms < 2 * 3600 * 1000 * 0.6 + 120000
        # The hand: a placed stone's point is unreadable for a while before it shows.
        hidden = 0
        for move in result.moves:
            if move["point"] is None:
                continue
            r = 9 - int(move["point"][1:])
            c = COLS.index(move["point"][0])
            t_show = move["visible_ms"]
            marks = [rows[r][c] for t, rows in seen.scans if t_show - 1200 <= t <= t_show + 80]
            hidden += "?" in marks
        assert hidden > len(result.moves) // 2


def test_flicker_rate_follows_the_noise_level():
    moves = random_game(9, 40, seed=9)
    game = sim.load_game(make_sgf(9, moves))

    def flickers(noise):
        seen = Seen(sim.simulate(game, noise, 2).text(), 9)
        count = 0
        for i in range(1, len(seen.scans) - 1):
            dur = seen.scans[i + 1][0] - seen.scans[i][0]
            if dur > FLICKER_MAX_MS:
                continue
            diff = [
                (r, c)
                for r in range(9)
                for c in range(9)
                if seen.point(i, r, c) != seen.point(i - 1, r, c)
                and seen.point(i - 1, r, c) == seen.point(i + 1, r, c)
            ]
            count += len(diff) == 1
        return count

    assert flickers("none") == 0
    assert flickers("typical") < flickers("harsh")


def test_captures_are_lifted_one_by_one_into_the_owners_bowl():
    moves = KO_GAME.split(",")
    game = sim.load_game(make_sgf(9, moves))
    result = sim.simulate(game, "none", 0)
    seen = Seen(result.text(), 9)
    a1, b1, a2 = ((8, 0), (8, 1), (7, 0))  # scan rows are top line first
    gone = []
    for pt in (a1, b1, a2):
        for t, rows in seen.scans:
            if t > seen.presses[12][0] - 2000 and rows[pt[0]][pt[1]] == ".":
                gone.append(t)
                break
    assert len(set(gone)) == 3  # three separate scans: one stone at a time
    assert gone == sorted(gone)  # no noise: in order
    assert max(gone) < seen.presses[12][0]  # and before the press
    # The bowls: stones per bowl from the weights match the board at the end.
    for color, letter in ((1, "B"), (2, "W")):
        readings = [
            r.payload[1] for r in seen.records if r.kind == "bowl" and r.payload[0] == color
        ]
        per_stone = readings[0] / 40
        on_board = sum(row.count(letter) for row in seen.scans[-1][1])
        final = sorted(readings[-3:])[1]
        assert round(final / per_stone) == 40 - on_board


def test_deterministic_for_a_seed():
    moves = random_game(9, 50, seed=6)
    game = sim.load_game(make_sgf(9, moves))
    a = sim.simulate(game, "harsh", 42, mistakes=[("nudge", 10)]).text()
    b = sim.simulate(sim.load_game(make_sgf(9, moves)), "harsh", 42, mistakes=[("nudge", 10)])
    assert a == b.text()
    assert a != sim.simulate(game, "harsh", 43, mistakes=[("nudge", 10)]).text()
    assert a != sim.simulate(game, "typical", 42, mistakes=[("nudge", 10)]).text()


def scans_between(seen, t0, t1):
    return [rows for t, rows in seen.scans if t0 <= t <= t1]


def at(rows, name):
    return rows[9 - int(name[1:])][COLS.index(name[0])]


def test_injected_mistakes_are_seen_and_taken_back():
    moves = KO_GAME.split(",")
    game = sim.load_game(make_sgf(9, moves))
    assert sim.ko_moves(game) == [16, 19]  # after E5 takes D5, and after D5 takes back
    for noise in sim.NOISE_LEVELS:
        result = sim.simulate(
            game,
            noise,
            7,
            mistakes=[("wrong-colour", 5), ("ko", 16), ("nudge", 8), ("knock-off", 12)],
        )
        # Every press still shows the game: each mistake was put right before play went on.
        check_by_eye(result.text(), 9, moves)
        seen = Seen(result.text(), 9)
        by_kind = {m["kind"]: m for m in result.injected}
        assert {k: m["alert"] for k, m in by_kind.items()} == {
            "wrong-colour": "wrong-colour",
            "ko": "ko",
            "nudge": "stone-moved",
            "knock-off": "stone-missing",
        }
        m = by_kind["wrong-colour"]
        assert m["points"] == ["D4"] and m["n"] == 5
        window = scans_between(seen, m["t_ms"], m["until_ms"])
        assert any(at(rows, "D4") == "W" for rows in window)  # Black played a white stone
        press4, press5 = seen.presses[3][0], seen.presses[4][0]
        assert press4 < m["t_ms"] < m["until_ms"] < press5
        m = by_kind["ko"]
        assert m["points"] == ["D5"]
        assert any(at(rows, "D5") == "W" for rows in scans_between(seen, m["t_ms"], m["until_ms"]))
        assert seen.presses[14][0] < m["t_ms"] < m["until_ms"] < seen.presses[15][0]
        m = by_kind["nudge"]
        s, e = m["points"]
        window = scans_between(seen, m["t_ms"], m["until_ms"])
        color = at(seen.steady_at(seen.presses[7][0]), s)
        assert color in "BW"
        assert any(at(rows, s) == "." and at(rows, e) == color for rows in window)
        assert seen.presses[7][0] < m["t_ms"] < m["until_ms"] < seen.presses[8][0]
        m = by_kind["knock-off"]
        (s,) = m["points"]
        assert any(at(rows, s) == "." for rows in scans_between(seen, m["t_ms"], m["until_ms"]))


def test_bad_mistakes_are_refused():
    game = sim.load_game(make_sgf(9, KO_GAME.split(",")))
    for mistakes in ([("ko", 5)], [("sneeze", 5)], [("nudge", 0)], [("nudge", 99)], ["ko"]):
        try:
            sim.simulate(game, "typical", 0, mistakes=mistakes)
        except ValueError:
            continue
        raise AssertionError("accepted %r" % (mistakes,))
    try:
        sim.simulate(game, "loud", 0)
    except ValueError as exc:
        assert "noise" in str(exc)
    else:
        raise AssertionError("accepted noise 'loud'")


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "host_tools", "simulate", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_cli_writes_a_log_that_reads_back(tmp_path):
    moves = KO_GAME.split(",")
    path = tmp_path / "game.sgf"
    path.write_bytes(make_sgf(9, moves))
    log = tmp_path / "game.log"
    proc = run_cli(
        str(path), "--noise", "harsh", "--seed", "9", "--log", str(log), "--mistake", "ko:16"
    )
    assert proc.returncode == 0, proc.stderr
    assert "20 plays, 2 passes" in proc.stdout
    text = log.read_text()
    assert text == sim.simulate(sim.load_game(make_sgf(9, moves)), "harsh", 9, [("ko", 16)]).text()
    check_by_eye(text, 9, moves)
    assert set(os.listdir(tmp_path)) == {"game.sgf", "game.log"}  # no temporary file left


def test_cli_bad_input_exits_2_with_one_line_and_writes_nothing(tmp_path):
    log = tmp_path / "out.log"
    cases = {
        "garbage.sgf": b"this is not a game record",
        "truncated.sgf": b"(;GM[1]FF[4]SZ[9];B[ee];W[cc]",
        "occupied.sgf": b"(;GM[1]FF[4]SZ[9];B[ee];W[ee])",
        "huge.sgf": b"(;GM[1]FF[4]SZ[21];B[ee])",
        "badmove.sgf": b"(;GM[1]FF[4]SZ[9];B[zz])",
        "badkomi.sgf": b"(;GM[1]FF[4]SZ[9]KM[lots];B[ee])",
    }
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        proc = run_cli(str(path), "--log", str(log))
        assert proc.returncode == 2, (name, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("ingboard simulate: error: "), lines
        assert not log.exists()
    good = tmp_path / "good.sgf"
    good.write_bytes(make_sgf(9, ["B E5"]))
    for args in (
        [str(tmp_path / "missing.sgf"), "--log", str(log)],
        [str(good), "--log", str(log), "--noise", "loud"],
        [str(good), "--log", str(log), "--mistake", "ko:1"],
        [str(good), "--log", str(log), "--mistake", "ko"],
        [str(good), "--log", str(tmp_path / "no" / "dir.log")],
        [str(good)],
    ):
        proc = run_cli(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert not log.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".sgf")) == []


def test_hands_hide_more_of_the_board_when_harsh():
    moves = random_game(9, 40, seed=12)
    game = sim.load_game(make_sgf(9, moves))

    def hidden_point_ms(noise):
        seen = Seen(sim.simulate(game, noise, 4).text(), 9)
        total = 0
        for (t, rows), (t2, _next) in zip(seen.scans, seen.scans[1:]):
            total += (t2 - t) * sum(row.count("?") for row in rows)
        return total

    none, typical, harsh = (hidden_point_ms(n) for n in sim.NOISE_LEVELS)
    assert none == 0 < typical < harsh


def test_bowls_see_hands_in_typical_play_and_read_exactly_with_no_noise():
    moves = KO_GAME.split(",")
    game = sim.load_game(make_sgf(9, moves))
    for noise in ("none", "typical"):
        seen = Seen(sim.simulate(game, noise, 3).text(), 9)
        black = [r.payload[1] for r in seen.records if r.kind == "bowl" and r.payload[0] == 1]
        if noise == "none":
            # Ideal cells: the reading changes only when a stone leaves or comes back. Black
            # takes 10 stones and gets 1 back (E5, captured by D5 at move 18).
            values = [w for i, w in enumerate(black) if i == 0 or w != black[i - 1]]
            assert len(values) == 1 + 10 + 1
            assert sum(1 for a, b in zip(values, values[1:]) if b > a) == 1
        else:
            # A hand pressing into the stones weighs more than the full bowl for a moment.
            assert max(black) > black[0] + 10
            assert len(black) > 60
