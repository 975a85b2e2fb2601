"""The standalone menus (menus/menu.py), their settings (menus/settings.py) and the alert faces'
texts (faces/board_face.py): keys in, screens and actions out (issue 16)."""

from expect import raises
from ingboard import alerts
from ingboard.faces import board_face
from ingboard.menus import menu
from ingboard.menus import settings as st
from ingboard.menus.menu import Menu, main_items, status_of
from ingboard.records.sgf_record import tracker_sgf
from ingboard.tracking.tracker import Tracker

RUNNING = {"phase": "play", "running": True, "paused": False, "started": True, "plies": 3}
PAUSED = {"phase": "play", "running": False, "paused": True, "started": True, "plies": 3}
TWO_PASSES = {"phase": "paused", "running": False, "paused": True, "started": True, "plies": 9}
ENDED = {"phase": "ended", "running": False, "paused": True, "started": True, "plies": 9}


def press(m, status, keys):
    out = []
    for k in keys.split():
        out += m.key(k, status)
    return out


def labels(m, status):
    return [row[0] for row in m.screen(status)[2]]


def test_the_menu_never_opens_while_the_clock_runs():
    m = Menu()
    assert press(m, RUNNING, "menu B W pause") == [] and not m.is_open()
    press(m, PAUSED, "menu")
    assert m.is_open() and m.screen(PAUSED)[1] == "MENU"
    # A play in the pause resumed the clock: the menu closes, keys press the clock again.
    m.sync(RUNNING)
    assert not m.is_open() and m.screen(RUNNING) is None


def test_main_items_follow_the_game():
    assert main_items(PAUSED) == ("RESUME", "UNDO", "RESIGN", "NEW GAME", "SENSOR MAP")
    assert main_items(dict(PAUSED, plies=0)) == ("RESUME", "RESIGN", "NEW GAME", "SENSOR MAP")
    # Ing 1991 Art. 1: in the pause after two passes the players agree or dispute.
    assert main_items(TWO_PASSES)[:2] == ("AGREE", "DISPUTE")
    assert main_items(ENDED) == ("NEW GAME", "SENSOR MAP")


def test_resume_is_the_resume_button_and_pause_closes_the_menu():
    m = Menu()
    assert press(m, PAUSED, "menu menu") == [("button", "resume")] and not m.is_open()
    press(m, PAUSED, "menu")
    assert press(m, PAUSED, "pause") == [] and not m.is_open()


def test_undo_needs_both_players_keys():
    # Ing 1991 Art. 8: a retraction is by agreement of both players.
    m = Menu()
    assert press(m, PAUSED, "menu W menu B B") == []
    assert "BLACK: YES" in m.screen(PAUSED)[2]
    assert "WHITE: PRESS YOUR KEY" in m.screen(PAUSED)[2]
    assert press(m, PAUSED, "W") == [("button", "undo")] and not m.is_open()
    # Cancelled with pause: nothing happens, back on the main page.
    press(m, PAUSED, "menu W menu B")
    assert press(m, PAUSED, "pause") == [] and m.page == "main"


def test_the_resigning_player_presses_their_own_key():
    m = Menu()
    assert press(m, PAUSED, "menu W W menu W") == [("button", "resign-W")]
    m = Menu()
    assert press(m, PAUSED, "menu W W menu menu B") == [("button", "resign-B")]


def test_agree_needs_both_and_dispute_either_after_two_passes():
    m = Menu()
    assert press(m, TWO_PASSES, "menu menu W") == []
    assert press(m, TWO_PASSES, "B") == [("button", "agree")]
    m = Menu()
    assert press(m, TWO_PASSES, "menu W menu B") == [("button", "dispute")]


def test_setting_up_ing_rules_with_penalty_points_and_starting():
    m = Menu()
    press(m, ENDED, "menu menu")
    assert labels(m, ENDED)[:3] == ["RULES", "KOMI", "HANDICAP"]
    # TIME: from Ing PP one down to absolute and back; BASIC TIME 60 -> 45 minutes.
    press(m, ENDED, "W W W menu B W menu W menu B menu")
    got = press(m, ENDED, "W menu")  # ROUND START -> edit? no: cursor moves to ROUND START
    assert got == [] and m.editing
    press(m, ENDED, "W W menu W")  # round start in 5 minutes, then to START
    actions = press(m, ENDED, "menu")
    assert len(actions) == 1 and actions[0][0] == "new-game"
    chosen = actions[0][1]
    assert chosen["time"]["system"] == "ing-pp" and chosen["time"]["basic_s"] == 45 * 60
    assert chosen["round_start_min"] == 5
    cfg = st.config(chosen, 19)
    assert cfg == {
        "size": 19,
        "rules": "ing1991",
        "time": {"system": "ing-pp", "basic_s": 2700},
        "round_start_ms": 300000,
    }
    assert m.settings == chosen  # remembered for the next setup
    Tracker(cfg)  # a game the tracker plays


def test_setup_lists_only_what_applies():
    s = st.defaults()
    keys = [k for k, _ in menu.visible_setup(s)]
    assert "handicap_style" not in keys and "periods" not in keys and keys[-1] == "start"
    s["handicap"] = 2
    s["time"]["system"] = "byoyomi"
    keys = [k for k, _ in menu.visible_setup(s)]
    assert "handicap_style" in keys and "periods" in keys and "period_s" in keys
    assert "stones" not in keys and "increment_s" not in keys


def test_values_step_within_their_choices():
    s = st.defaults()
    # Komi starts from the ruleset's own and returns to "RULES" there (follows the rules).
    assert menu.value_text(s, "komi") == "RULES 8"
    s["komi"] = menu._step(s, "komi", 1)
    assert s["komi"] == 8.5 and menu.value_text(s, "komi") == "8.5"
    assert menu._step(s, "komi", -1) is None
    s["rules"] = "japanese"
    s["komi"] = None
    assert menu.value_text(s, "komi") == "RULES 6.5"
    # Ends of a list stay put; basic time 0 only with overtime periods.
    assert menu._step(s, "rules", -1) == "ing1996"
    s["rules"] = "aga"
    assert menu._step(s, "rules", -1) == "aga"
    s["handicap"] = 9
    assert menu._step(s, "handicap", 1) == 9
    s["time"]["basic_s"] = 60
    assert menu._step(s, "basic_s", -1) == 60  # Ing PP needs basic time
    s["time"]["system"] = "byoyomi"
    assert menu._step(s, "basic_s", -1) == 0
    assert menu.value_text(s, "basic_s") == "1 MIN"


def test_abandoning_a_game_in_progress_needs_both_players():
    m = Menu()
    press(m, PAUSED, "menu W W W menu B")
    assert m.page == "confirm"
    press(m, PAUSED, "W")
    assert m.page == "setup"
    # After the end a new game needs no confirmation.
    m = Menu()
    press(m, ENDED, "menu menu")
    assert m.page == "setup"


def test_the_sensor_map_page_and_back():
    m = Menu()
    press(m, ENDED, "menu W menu")
    assert m.screen(ENDED)[0] == "health"
    press(m, ENDED, "B")
    assert m.page == "main"


def test_status_of_a_real_tracker():
    t = Tracker({"size": 9, "rules": "ing1991", "time": {"system": "ing-pp", "basic_s": 600}})
    t.scan(0, ["........."] * 9)
    s = status_of(t)
    assert s["running"] and s["phase"] == "play" and s["plies"] == 0
    t.button(1000, "pause")
    assert not status_of(t)["running"] and status_of(t)["paused"]


def test_settings_file_round_trip_and_damage():
    s = st.defaults()
    s["komi"] = 7.5
    s["time"]["system"] = "fischer"
    assert st.parse(st.text(s)) == s
    assert "not JSON" in str(raises(ValueError, st.parse, "{"))
    assert "format" in str(raises(ValueError, st.parse, '{"format": 9}'))
    bad = st.text(s).replace('"rules": "ing1991"', '"rules": "chess"')
    assert "unknown rules" in str(raises(ValueError, st.parse, bad))
    bad = st.text(s).replace('"komi": 7.5', '"komi": 7.25')
    assert "komi" in str(raises(ValueError, st.parse, bad))
    s["handicap"] = 12
    assert "handicap" in str(raises(ValueError, st.text, s))


def test_every_alert_code_has_words_that_fit_the_face():
    import framebuf

    fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    assert len(alerts.codes()) == len(set(alerts.codes())) > 20
    # One line a code, four fields: code|sentence|title|what to do.
    assert all(line.count("|") == 3 for line in alerts._TABLE.split("\n") if line)
    for code in alerts.codes():
        title, todo = alerts.face_words(code)
        assert title and todo and alerts.alert_text(code), code
        assert len(title) <= 15, code
        lines = board_face.wrap(todo)
        assert 0 < len(lines) <= 4 and max(len(x) for x in lines) <= 16, code
        # Every character has a glyph: the face draws (a ValueError otherwise).
        board_face.alert(fb, ["." * 9] * 9, {"code": code, "points": ["A1", "J9"]})


def test_point_names_on_the_mini_board():
    assert board_face.point_xy("A19", 19) == (0, 0)
    assert board_face.point_xy("T1", 19) == (18, 18)
    assert board_face.point_xy("J10", 19) == (8, 9)  # no I column
    assert board_face.point_xy("K10", 9) is None and board_face.point_xy("pass", 9) is None


def test_settings_the_game_refuses_go_back_to_the_setup_page():
    m = Menu()
    remembered = st.copy(m.settings)
    actions = press(m, ENDED, "menu menu W W menu W menu W W W W W menu")
    assert actions and actions[0][0] == "new-game"
    chosen = actions[0][1]
    assert chosen["handicap"] == 2
    # The app found the game refuses them (standalone.py): back to setup, asked to check.
    m.refused(chosen, m.before)
    assert m.page == "setup" and m.draft == chosen and m.settings == remembered
    assert m.screen(ENDED)[1] == "CANNOT START: CHECK SETTINGS"
    press(m, ENDED, "B")
    assert m.screen(ENDED)[1] == "NEW GAME"


def _tracker_with(stones):
    """A 9x9 Ing 1991 game: `stones` is [(point, colour char, press)], each put on the board,
    left to settle and (with press) pressed for; returns the tracker, its rows and the time."""
    t = Tracker({"size": 9, "rules": "ing1991"})
    rows = [["."] * 9 for _ in range(9)]
    t.scan(0, ["".join(r) for r in rows])
    now = 0
    events = []
    for point, ch, pressed in stones:
        rows[9 - int(point[1:])]["ABCDEFGHJ".index(point[0])] = ch
        for _ in range(12):
            now += 50
            events += t.scan(now, ["".join(r) for r in rows])
        if pressed:
            now += 20
            events += t.press(now, 1 if ch == "B" else 2)
    return t, now, events


def _through_menu(m, t, now, item, keys):
    """Pause the clock, open the menu, select `item` and press `keys`; the actions go to the
    tracker as the standalone app sends them. Returns the tracker's events."""
    events = t.button(now + 20, "pause")
    press(m, status_of(t), "menu")
    items = list(main_items(status_of(t)))
    press(m, status_of(t), "W " * items.index(item) + "menu")
    assert m.page == "confirm"
    for action in press(m, status_of(t), keys):
        assert action[0] == "button"
        events += t.button(now + 40, action[1])
    return events


def test_accept_shift_is_offered_while_a_stone_stands_nudged():
    # tracking/displacement.py: both players accept a nudged stone's shift (`accept-shift`).
    t, now, events = _tracker_with(
        [("E5", "B", True), ("C3", "W", True), ("E5", ".", False), ("E6", "B", False)]
    )
    assert ("stone-moved", ["E5", "E6"]) in [
        (e["code"], e["points"]) for e in events if e["type"] == "alert"
    ]
    assert "ACCEPT SHIFT" not in main_items(PAUSED)
    m = Menu()
    events = _through_menu(m, t, now, "ACCEPT SHIFT", "B")
    assert events[-1]["type"] == "pause" and m.page == "confirm"  # one key is not enough
    assert m.screen(status_of(t))[2][-1] == "WHITE: PRESS YOUR KEY"
    events = []
    for action in press(m, status_of(t), "W"):
        events += t.button(now + 60, action[1])
    shifts = [(e["from"], e["to"]) for e in events if e["type"] == "shift"]
    assert shifts == [("E5", "E6")] and not m.is_open()
    assert "ACCEPT SHIFT" not in main_items(status_of(t))
    assert "accepted shift E5-E6" in tracker_sgf(t)


def test_a_resignation_offer_is_confirmed_by_the_offering_players_key():
    # Ing 1991 Art. 9 (1) "Resigning": two stones and the press offer resignation; the menu
    # confirms it with the offering player's own key only.
    for ch, color, other, result in (("W", 2, "B", "B+R"), ("B", 1, "W", "W+R")):
        stones = [("E5", "B", True)] + ([("C3", "W", True)] if ch == "B" else [])
        stones += [("D4", ch, False), ("F6", ch, True)]
        t, now, events = _tracker_with(stones)
        assert "resign-offer" in [e["code"] for e in events if e["type"] == "alert"]
        assert status_of(t)["resign_offer"] == color
        m = Menu()
        events = _through_menu(m, t, now, "CONFIRM RESIGN", other)  # not theirs to confirm
        assert m.page == "confirm" and not [e for e in events if e["type"] == "end"]
        assert (
            m.screen(status_of(t))[2][-1]
            == ("BLACK" if ch == "B" else "WHITE") + ": PRESS YOUR KEY"
        )
        for action in press(m, status_of(t), ch):
            events += t.button(now + 60, action[1])
        assert [e["result"] for e in events if e["type"] == "end"] == [result]
        assert "RE[%s]" % result in tracker_sgf(t)
