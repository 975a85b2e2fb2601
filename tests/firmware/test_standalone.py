"""The app's side of the menus (ingboard/app/standalone.py): the settings remembered on flash."""

import os

from ingboard.app.standalone import Standalone
from ingboard.menus import settings as st


class Store:
    def __init__(self, root):
        self.root = root


class StubApp:
    def __init__(self, root):
        self.store = Store(root)
        self.warnings = []
        self.calibrating = None  # (App: the calibration mode, app/inputs.py)

    def warn(self, text):
        self.warnings.append(text)


def _root(name):
    root = "/tmp/ingboard-test-standalone-" + name
    try:
        os.mkdir(root)
    except OSError:
        pass
    for f in ("/settings.json", "/settings.json.tmp"):
        try:
            os.remove(root + f)
        except OSError:
            pass
    return root


def test_settings_are_remembered_across_a_restart():
    root = _root("keep")
    app = StubApp(root)
    assert Standalone(app).settings == st.defaults() and not app.warnings
    chosen = st.defaults()
    chosen["rules"] = "chinese"
    chosen["time"]["system"] = "fischer"
    Standalone(app).save(chosen)
    Standalone(app).save(chosen)  # over an existing file
    assert Standalone(StubApp(root)).settings == chosen
    assert "settings.json.tmp" not in os.listdir(root)


def test_a_damaged_file_gives_the_defaults_and_one_warning():
    root = _root("damaged")
    with open(root + "/settings.json", "w") as f:
        f.write('{"format": 1, "rules": "chess"}')
    app = StubApp(root)
    assert Standalone(app).settings == st.defaults()
    assert len(app.warnings) == 1 and "settings not read" in app.warnings[0]


def test_a_power_cut_between_the_two_steps_of_a_save_keeps_the_new_settings():
    # On a file system whose rename does not replace, save() removes the old file first; a
    # cut right then leaves only the .tmp, which is read.
    root = _root("cut")
    chosen = st.defaults()
    chosen["handicap"] = 4
    with open(root + "/settings.json.tmp", "w") as f:
        f.write(st.text(chosen))
    assert Standalone(StubApp(root)).settings == chosen


def test_which_alert_the_faces_show():
    from ingboard.tracking.tracker import Tracker

    app = StubApp(_root("alerts"))
    app.tracker = Tracker({"size": 9, "rules": "ing1991"})
    s = Standalone(app)
    s.note({"type": "alert", "code": "sensor-fault", "points": [], "text": "x"}, 1000)
    # What the face shows of it is kept (its code and points), not its sentence.
    kept = {"code": "sensor-fault", "points": []}
    assert s._standing(5000) == kept and s._standing(1000 + 10000) is None
    assert "text" not in s._standing(5000)
    # A board alert stands while the tracker holds its condition, newest first.
    board = app.tracker.game.board
    p = board.parse("E5")
    s.note({"type": "alert", "code": "wrong-colour", "points": ["E5"], "text": "x"}, 2000)
    app.tracker.active[("wrong-colour", p)] = True
    shown = {"code": "wrong-colour", "points": ["E5"]}
    assert s._standing(3000) == shown and s._standing(60000) == shown
    del app.tracker.active[("wrong-colour", p)]
    assert s._standing(3000) == kept and s._standing(60000) is None
    s.note({"type": "move", "n": 1}, 4000)  # not an alert: nothing kept
    assert len(s.alerts) == 2


class GameApp(StubApp):
    """StubApp with a game and the app's step/new_game recorded."""

    BUTTON = 3
    PRESS = 2

    def __init__(self, root, config):
        from ingboard.tracking.tracker import Tracker

        StubApp.__init__(self, root)
        self.tracker = Tracker(config)
        self.started = []

    def new_game(self, config):
        self.started.append(config)


def test_settings_the_game_refuses_start_nothing_and_are_not_remembered():
    # Japanese rules with a fixed handicap of 4 on a 7x7 board is fine; 9 is not.
    root = _root("refused")
    app = GameApp(root, {"size": 7, "rules": "japanese"})
    app.tracker.game.phase = "ended"
    s = Standalone(app)
    # MENU, NEW GAME; RULES ing1991 -> japanese; HANDICAP 0 -> 9; START.
    keys = "menu menu menu W W menu W W menu" + " W" * 8 + " menu" + " W" * 5 + " menu"
    for k in keys.split():
        s.key(0, ("B", "W", "pause", "menu").index(k))
    assert app.started == [] and any("new game refused" in w for w in app.warnings)
    assert s.menu.page == "setup" and s.menu.draft["handicap"] == 9
    assert s.menu.settings == st.defaults() and "settings.json" not in os.listdir(root)
    # Four stones (the most a 7x7 board has points for), START: the game starts, remembered.
    for k in ("W W menu" + " B" * 5 + " menu" + " W" * 5 + " menu").split():
        s.key(0, ("B", "W", "pause", "menu").index(k))
    assert len(app.started) == 1 and app.started[0]["handicap"] == 4
    # The menu closed with START: it is dropped (its code is loaded only while it is open),
    # the settings it chose stay.
    assert s.menu is None and s.settings["handicap"] == 4
    import gc
    import sys

    if hasattr(gc, "mem_alloc"):  # MicroPython: the menu's modules went too (gc_policy.drop)
        assert "ingboard.menus.menu" not in sys.modules
        assert "ingboard.faces.menu_face" not in sys.modules
    s.key(0, ("B", "W", "pause", "menu").index("menu"))  # and it opens again
    assert s.menu_open()
    assert Standalone(StubApp(root)).settings["handicap"] == 4
