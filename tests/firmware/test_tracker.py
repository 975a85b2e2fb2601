"""The tracker on hand-made scan sequences: commits, flicker, captures lifted late, passes,
alerts for every kind of mistake, the pause, dead stones, the count (CPython and MicroPython)."""

from ingboard.records.sgf_record import tracker_sgf
from ingboard.tracking.tracker import Tracker
from ingrules.board import BLACK, WHITE


class Table:
    """A physical 9x9 board the test changes point by point; scans it into a Tracker."""

    def __init__(self, rules="ing1991", size=9, first_scan=True, **config):
        config.update({"size": size, "rules": rules})
        self.tracker = Tracker(config)
        self.size = size
        self.rows = [["."] * size for _ in range(size)]
        self.t = 0
        self.events = []
        if first_scan:
            # The board is scanned empty when the game starts (a stone already there before
            # the first move is `stone-extra`, issue 14).
            self.events += self.tracker.scan(0, ["".join(r) for r in self.rows])

    def at(self, name):
        col = "ABCDEFGHJKLMNOPQRST".index(name[0])
        return self.size - int(name[1:]), col

    def put(self, name, ch):
        r, c = self.at(name)
        self.rows[r][c] = ch

    def scan(self, dt=50):
        self.t += dt
        rows = ["".join(r) for r in self.rows]
        self.events += self.tracker.scan(self.t, rows)

    def wait(self, ms, step=50):
        end = self.t + ms
        while self.t + step <= end:
            self.scan(step)

    def press(self, color, dt=20):
        self.t += dt
        self.events += self.tracker.press(self.t, color)

    def button(self, name, dt=20):
        self.t += dt
        self.events += self.tracker.button(self.t, name)

    def play(self, name, ch, lift=()):
        self.put(name, ch)
        self.wait(200)
        for q in lift:
            self.put(q, ".")
        self.wait(100)
        self.press(BLACK if ch == "B" else WHITE)

    def of(self, kind):
        return [e for e in self.events if e["type"] == kind]

    def alerts(self):
        return [(e["code"], e["points"]) for e in self.of("alert")]


def test_a_stone_is_committed_after_it_is_stable_100_ms_of_board_time():
    table = Table()
    table.put("E5", "B")
    table.scan(10)
    table.scan(60)  # 60 ms stable: not yet
    assert not table.of("move")
    table.scan(50)  # 110 ms: committed
    moves = table.of("move")
    assert [(m["color"], m["point"], m["n"]) for m in moves] == [("B", "E5", 1)]
    assert moves[0]["t"] == table.t == 120


def test_single_scan_flicker_is_never_a_move_nor_an_alert():
    table = Table()
    table.put("C3", "W")
    table.scan(40)
    table.put("C3", ".")
    table.wait(1000)
    assert not table.of("move") and not table.of("alert")


def test_occlusion_then_stone_then_press_and_a_pass():
    table = Table()
    for name in ("D4", "D5", "E4", "E5", "F5"):
        table.put(name, "?")
    table.wait(300)
    for name in ("D4", "D5", "E4", "F5"):
        table.put(name, ".")
    table.put("E5", "B")
    table.wait(300)
    table.press(BLACK)
    table.press(WHITE)  # no new stone: White passes
    assert [(e["type"], e["color"]) for e in table.events if e["type"] in ("move", "pass")] == [
        ("move", "B"),
        ("pass", "W"),
    ]
    assert table.tracker.game.to_play == BLACK


def test_captured_stones_lifted_late_and_the_next_move_before_they_are_gone():
    table = _black_captured_a2()  # A2 still on the board
    assert table.of("move")[-1]["captures"] == ["A2"]
    table.play("J8", "W")  # White plays before A2 is lifted: accepted, and a reminder
    assert table.of("move")[-1]["point"] == "J8"
    assert ("remove-captured", ["A2"]) in table.alerts()
    table.put("A2", ".")
    table.wait(500)
    assert [m["point"] for m in table.of("move")] == ["B2", "A2", "A3", "J9", "A1", "J8"]


def test_wrong_colour_alert_game_unchanged_until_taken_back():
    table = Table()
    table.put("E5", "W")  # Black is to play
    table.wait(600)
    assert table.alerts() == [("wrong-colour", ["E5"])]
    assert not table.tracker.game.plies
    table.put("E5", ".")
    table.wait(200)
    table.play("E5", "B")
    assert [m["point"] for m in table.of("move")] == ["E5"]


def test_illegal_ko_retake_alerts_with_the_rules_reason():
    # Ing 1991 Art. 3: the hot stone may not be taken at once.
    table = Table("ing1991")
    for name, ch in (("B5", "B"), ("C5", "W"), ("A4", "B"), ("D4", "W"), ("B3", "B")):
        table.play(name, ch)
    table.play("C3", "W")
    table.play("J9", "B")
    table.play("B4", "W")  # White B4 ... sets up the ko shape
    table.play("C4", "B", lift=("B4",))  # Black takes B4
    assert table.of("move")[-1]["captures"] == ["B4"]
    table.put("B4", "W")
    table.put("C4", ".")  # White retakes at once (lifting the hot stone)
    table.wait(600)
    # The retake is refused (rule alert) and the lifted hot stone is missing from the board.
    assert table.alerts() == [("ko", ["B4"]), ("stone-missing", ["C4"])]
    assert table.of("move")[-1]["point"] == "C4"
    table.put("B4", ".")
    table.put("C4", "B")
    table.wait(300)
    table.play("J1", "W")
    assert table.of("move")[-1]["point"] == "J1"


def test_nudged_stone_and_knocked_off_stone():
    table = Table()
    table.play("E5", "B")
    table.play("C3", "W")
    table.put("E5", ".")
    table.put("E6", "B")  # nudged to a neighbouring point
    table.wait(600)
    assert ("stone-moved", ["E5", "E6"]) in table.alerts()
    table.put("E6", ".")
    table.put("E5", "B")
    table.wait(300)
    table.put("C3", ".")  # knocked off
    table.wait(600)
    assert ("stone-missing", ["C3"]) in table.alerts()
    assert len(table.tracker.game.plies) == 2  # the game never changed
    table.put("C3", "W")
    table.play("G7", "B")
    assert table.of("move")[-1]["point"] == "G7"


def test_two_new_stones_are_not_a_move():
    table = Table("aga")
    table.put("E5", "B")
    table.put("D4", "B")
    table.wait(600)
    assert not table.of("move")
    assert table.alerts() == [("two-stones", ["E5", "D4"])]


def test_ing_1991_art_9_resigning_two_stones_and_the_press_confirmed_by_a_second_press():
    # Ing 1991 Art. 9 (1) "Resigning": "he should place two stones on the board to indicate
    # that he has resigned": offered at the press, confirmed by the second press.
    table = Table("ing1991")
    table.play("E5", "B")
    table.put("D4", "W")
    table.put("F6", "W")
    table.wait(600)
    assert not table.of("move")[1:] and table.alerts() == []  # a signal, not a mistake
    table.press(WHITE)
    assert table.alerts() == [("resign-offer", ["F6", "D4"])]  # scan order: top line first
    assert not table.of("end")
    table.press(WHITE, dt=800)
    assert [(e["result"], e["reason"]) for e in table.of("end")] == [("B+R", "resign")]


def test_pause_dead_stones_four_passes_and_the_count():
    # Ing 1991 terms 18-19: two passes pause, the dead stones are taken away, two more passes end
    # play; Art. 4: the count (fill-in) decides.
    table = Table("ing1991", size=5, komi=0)
    for name, ch in (("C1", "B"), ("D1", "W"), ("C2", "B"), ("D2", "W"), ("C3", "B"), ("D3", "W")):
        table.play(name, ch)
    for name, ch in (("C4", "B"), ("D4", "W"), ("C5", "B"), ("D5", "W"), ("A1", "B"), ("B1", "W")):
        table.play(name, ch)
    table.press(BLACK)
    table.press(WHITE)
    assert table.of("pause")
    table.put("B1", ".")  # White's B1 is dead: Black takes it off
    table.wait(400)
    removal = table.of("removal")
    assert removal and removal[0]["points"] == ["B1"]
    table.press(BLACK)
    table.press(WHITE)
    ends = table.of("end")
    assert ends and ends[0]["reason"] == "count"
    count = table.of("count")[0]
    assert count["black"] == 15 and count["white"] == 10 and count["result"] == "B+5"


def test_resignation_button_and_undo():
    table = Table()
    table.play("E5", "B")
    table.play("C3", "W")
    table.button("undo")
    assert len(table.tracker.game.plies) == 1 and table.tracker.game.to_play == WHITE
    table.put("C3", ".")
    table.wait(300)
    table.play("D4", "W")
    assert table.of("move")[-1]["point"] == "D4"
    table.button("resign-B")
    end = table.of("end")[-1]
    assert end["result"] == "W+R" and end["reason"] == "resign"


def test_ing_handicap_plays_white_passes_mandatorily():
    # Ing 1991 Art. 6: "Black makes a board play anywhere, White makes a mandatory pass play,
    # then Black makes another board play anywhere."
    table = Table("ing1991", handicap=1, time={"system": "absolute", "basic_s": 600})
    table.play("C3", "B")
    passes = table.of("pass")
    assert passes and passes[0]["color"] == "W" and passes[0]["mandatory"]
    assert table.tracker.game.to_play == BLACK
    table.play("G7", "B")
    table.play("E5", "W")
    assert [(m["color"], m["point"]) for m in table.of("move")] == [
        ("B", "C3"),
        ("B", "G7"),
        ("W", "E5"),
    ]
    state = table.tracker.clock.state(table.t)
    assert state["B"]["main_ms"] < 600000 and state["W"]["main_ms"] < 600000


def test_penalty_points_reach_the_count_and_the_sgf():
    # Ing 1991 Art. 7: exceeding the basic time costs 2 points; Art. 4: "For compensation points
    # and time difference penalty points, one stone for every two points is filled in".
    table = Table("ing1991", size=5, komi=0, time={"system": "ing-pp", "basic_s": 60})
    for name, ch in (("C1", "B"), ("D1", "W"), ("C2", "B"), ("D2", "W"), ("C3", "B"), ("D3", "W")):
        table.play(name, ch)
    table.t += 61000  # Black thinks past the basic time: 2 penalty points
    table.play("C4", "B")
    for name, ch in (("D4", "W"), ("C5", "B"), ("D5", "W")):
        table.play(name, ch)
    for _ in range(4):
        table.press(BLACK)
        table.press(WHITE)
        if table.of("end"):
            break
    count = table.of("count")[0]
    assert count["penalty"] == {"B": 2, "W": 0}
    # Black 15, White 10 on the board; Black's 2 penalty points cost one stone (2 points).
    assert count["black"] == 15 and count["white"] == 10
    assert count["difference"] == 3 and count["result"] == "B+3"
    sgf = tracker_sgf(table.tracker)
    assert "IP[B2W0]" in sgf and "OT[3x10 Ing-PP]" in sgf and "BL[" in sgf and "RE[B+3]" in sgf
    assert any(e["type"] == "clock" and e["B"]["penalty"] == 2 for e in table.events)


def test_lateness_costs_twice_its_length_and_1996_forfeits_past_a_sixth():
    # Ing 1991 Art. 8: "twice the amount of time by which he is late is deducted from his
    # basic time limit"; Ing 1996 Rule 10: "late by more than 1/6 of the basic time, he forfeits".
    table = Table("ing1991", round_start_ms=0, time={"system": "ing-pp", "basic_s": 600})
    table.press(BLACK, dt=1000)  # Black arrives 1 s late
    table.press(WHITE, dt=59000)  # White arrives 60 s late
    state = table.tracker.clock.state(table.t)
    assert state["B"]["main_ms"] == 600000 - 2000
    assert state["W"]["main_ms"] == 600000 - 120000
    assert not table.of("pass")  # arrival presses are not passes
    table.play("E5", "B")
    assert table.of("move")[-1]["point"] == "E5"
    late = Table("ing1996", round_start_ms=0, time={"system": "ing-pp", "basic_s": 600})
    late.press(BLACK, dt=1000)
    late.press(WHITE, dt=100001)  # more than 600 s / 6
    end = late.of("end")[-1]
    assert end["result"] == "B+F" and end["reason"] == "forfeit"
    ontime = Table("ing1996", round_start_ms=0, time={"system": "ing-pp", "basic_s": 600})
    ontime.press(BLACK, dt=1000)
    ontime.press(WHITE, dt=99000)  # exactly 100 s late: not "more than" 1/6
    assert not ontime.of("end")


def test_undo_before_the_press_leaves_the_clock_with_the_player_to_move():
    # A retraction of a stone not yet pressed: the clock still runs for that player.
    table = Table("ing1991", time={"system": "absolute", "basic_s": 600})
    table.play("C3", "B")
    table.play("G7", "W")
    table.put("C7", "B")
    table.wait(300)  # committed, not pressed
    table.button("undo")
    assert table.tracker.game.to_play == BLACK and table.tracker.clock.turn == BLACK
    table.put("C7", ".")
    table.wait(300)
    table.play("D4", "B")
    table.play("E5", "W")
    assert [m["point"] for m in table.of("move")] == ["C3", "G7", "C7", "D4", "E5"]
    assert table.tracker.clock.turn == BLACK


def test_a_dead_stone_put_back_during_the_pause_is_restored_not_a_crash():
    # Ing 1991 Art. 8 "Mistaken removal ... parity of moves is restored ... with no penalty".
    table = Table("ing1991")
    for name, ch in (("C3", "B"), ("G7", "W"), ("C7", "B"), ("G3", "W")):
        table.play(name, ch)
    table.press(BLACK)
    table.press(WHITE)
    table.put("C7", ".")
    table.wait(400)
    assert table.of("removal")[-1]["points"] == ["C7"]
    table.put("C7", "B")
    table.wait(400)
    assert table.of("restored")[-1]["points"] == ["C7"]
    game = table.tracker.game
    assert game.phase == "paused" and game.dead == [] and len(game.plies) == 6


def test_play_during_the_pause_resumes_the_clock():
    table = Table("ing1991", time={"system": "absolute", "basic_s": 600})
    table.play("C3", "B")
    table.play("G7", "W")
    table.press(BLACK)
    table.press(WHITE)
    assert not table.tracker.clock.running()
    table.play("D5", "B")
    assert table.of("resume") and table.tracker.clock.running()
    assert table.tracker.clock.turn == WHITE


def test_free_handicap_stones_are_placed_then_white_plays():
    # AGA Rule 4 / Ing free placement: Black places the handicap stones before White moves.
    table = Table("simplified-ing", handicap=2, time={"system": "absolute", "basic_s": 600})
    table.play("C3", "B")
    table.play("G7", "B")
    assert [e["point"] for e in table.of("handicap")] == ["C3", "G7"]
    table.play("E5", "W")
    assert [m["point"] for m in table.of("move")] == ["E5"]
    assert not table.alerts() and table.tracker.clock.turn == BLACK


def test_a_late_press_is_not_owed_once_the_opponent_has_pressed():
    table = Table("ing1991")
    table.play("C3", "B")
    table.play("G7", "W")
    table.put("C7", "B")
    table.wait(300)  # Black does not press
    table.play("G3", "W")  # White plays (confirming Black's move) and presses
    table.t += 3000
    table.press(BLACK)  # now Black's press is a pass, not a late press for C7
    assert table.of("pass") and table.of("pass")[-1]["color"] == "B"


def test_a_press_calls_the_checkpoint_between_its_parts_and_means_the_same():
    # issue 20: a press (a move confirmed, a pass, the last pass that ends play and counts)
    # is made in slices, the app's scan checkpoint called between them - a scan is never held
    # up by a whole press at the end of a long game. The game is the same with the checkpoint
    # (Ing 1991 terms 18-19 and Art. 4: two passes pause, two more end play; the count).
    def game(checkpoint):
        table = Table("ing1991", size=5, komi=0)
        table.tracker.checkpoint = checkpoint
        for name, ch in (("C1", "B"), ("D1", "W"), ("C2", "B"), ("D2", "W"), ("C3", "B")):
            table.play(name, ch)
        table.play("D3", "W")
        calls = []
        for color in (BLACK, WHITE, BLACK, WHITE):
            before = marks[0]
            table.press(color)
            calls.append(marks[0] - before)
        return table, calls

    marks = [0]

    def mark():
        marks[0] += 1

    plain, _none = game(None)
    sliced, calls = game(mark)
    assert plain.events == sliced.events
    assert sliced.of("count") and sliced.tracker.game.phase == "ended"
    # Each pass press: after the clock caught up, after the board is read, before it is
    # judged, after the pass is played, before the clock switches (the count adds its own
    # slices to the last).
    assert min(calls) >= 5 and calls[-1] > calls[0]


def _black_captured_a2():
    # Black's A1 captures White's A2 and Black presses; A2 is still on the board.
    table = Table("chinese")
    table.play("B2", "B")
    table.play("A2", "W")
    table.play("A3", "B")
    table.play("J9", "W")
    table.put("A1", "B")
    table.wait(300)
    table.press(BLACK)
    return table


def test_a_move_put_down_just_after_the_prisoners_are_lifted_is_a_move_not_a_slip():
    # The slip rule (plays.py SLIP_MS: a stone that appeared, then its colour's prisoners were
    # seen lifted, is a prisoner fallen from the fingers) looks at which came first: White's
    # stone one or two scans after the lift was seen - before the lifted point has stood still
    # for the settle time - is White's move (brisk players; the twin's soak plays so).
    for gap in (25, 40, 80):
        table = _black_captured_a2()
        table.put("A2", ".")  # the prisoner lifted
        table.scan(25)
        table.put("E5", "W")  # White's move, `gap` ms after the lift was seen
        table.scan(gap)
        table.wait(400)
        assert table.of("move")[-1]["point"] == "E5", gap
        assert table.alerts() == [], gap


def test_a_prisoner_dropped_as_it_is_lifted_is_still_a_slip():
    # The slip rule itself (plays.py SLIP_MS): the stone falls from the fingers in the very
    # scan the lift is seen, or shortly before it.
    for before in (0, 50, 300):
        table = _black_captured_a2()
        table.put("A2", "?")  # the hand over the prisoner
        table.scan(25)
        if before:
            table.put("E5", "W")  # fallen from the fingers
            table.scan(before)
        table.put("A2", ".")
        table.put("E5", "W")
        table.scan(25)
        table.wait(1500)
        assert [m["point"] for m in table.of("move")][-1] == "A1", before
        assert ("stone-extra", ["E5"]) in table.alerts(), before


def test_flicker_is_counted_per_window_past_minutes_of_board_time():
    # The window starts are kept in their low 16 bits (board_view.flip_start): past ~65 s of
    # board time, and across each 65.5 s wrap of those bits, a live window keeps its count
    # and an old one stays old. From 60 s to 140 s a point begins a window every second: 12
    # changes 100 ms apart (FLIPS: a faulty sensor), or 10 (not one); the windows overlap,
    # so each wrap falls inside some.
    table = Table(size=19)
    table.wait(60000, step=1000)
    names = [c + str(n) for n in range(1, 20) for c in "ABCDEFGHJKLMNOPQRST"]
    plan = []  # (first scan, changes, name)
    for k in range(80):
        plan.append((10 * k, 12 if k % 2 == 0 else 10, names[k]))
    for step in range(10 * 80 + 20):
        for first, changes, name in plan:
            j = step - first
            if 0 <= j < changes:
                table.put(name, "?" if j % 2 == 0 else ".")
            elif j == changes:
                table.put(name, ".")
        table.scan(100)
    table.wait(1000)
    faults = sorted(e["points"][0] for e in table.of("alert") if e["code"] == "sensor-fault")
    assert faults == sorted(name for _, changes, name in plan if changes == 12)
