"""The menu, alert, count and health-map faces shown in the golden images and the README.

Each scene is (name, draw) where draw(fb, color) paints one player's 128x64 face with the
firmware's own code. Like clock_scenes.py this module runs unchanged under MicroPython
(tests/host/test_menu_faces.py compares real framebuf bytes with the CPython shim's), so it
imports only firmware modules.
"""

from ingboard.faces import board_face, menu_face
from ingboard.menus import settings as st
from ingboard.menus.menu import Menu
from ingrules.board import Board
from ingrules.scoring import ing_fill_in

PLAYING = {"phase": "play", "running": False, "paused": True, "started": True, "plies": 37}
ENDED = {"phase": "ended", "running": False, "paused": True, "started": True, "plies": 212}
TWO_PASSES = {"phase": "paused", "running": False, "paused": True, "started": True, "plies": 90}


def _keys(menu, status, keys):
    for k in keys:
        menu.key(k, status)
    return menu


def _menu_scene(status, keys, settings=None):
    def draw(fb, color):
        m = _keys(Menu(settings), status, keys)
        menu_face.draw(fb, m.screen(status))

    return draw


def _byoyomi():
    s = st.defaults()
    s["rules"] = "japanese"
    s["handicap"] = 3
    s["time"]["system"] = "byoyomi"
    s["round_start_min"] = 10
    return s


# A 19x19 middle game: White's stone at D4 where Black was to play.
_MIDDLE = [
    "...................",
    "...................",
    "...W...........B...",
    "..W.B.......W..B...",
    "...B..........W.B..",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    "..W..........W.....",
    "...B.....B...W.B...",
    "..BW.........B.....",
    "...................",
    "...................",
]
_SMALL = [
    ".............",
    "...W.....B...",
    "..WB.....B...",
    "...W....W....",
    "...WB........",
    "....B........",
    ".............",
    ".............",
    "...B.....W...",
    "..BW....WB...",
    "..BW.....B...",
    ".............",
    ".............",
]


def _alert(rows, code, points):
    def draw(fb, color):
        board_face.alert(fb, rows, {"type": "alert", "code": code, "points": points})

    return draw


def _result(fb, color):
    # The seeds' even-game demonstration (Kim/Simon/Straus Part 3): B+3 after the fill-in.
    rows = [".....BW.."] + ["....BW..."] * 6 + [".W..BW...", "....BW..."]
    b = Board(9)
    b.load_rows(rows)
    count, plan = ing_fill_in(b, komi=8, dead=["B2"])
    b.load_rows(rows[:7] + ["....BW...", "....BW..."])
    board_face.result(fb, count, plan, b.rows())


def _health(fb, color):
    rows = ["+" * 19 for _ in range(19)]
    rows[3] = "+" * 7 + "R" + "+" * 11
    rows[12] = "+" * 15 + "F" + "+" * 3
    rows[18] = "C" + "+" * 18
    menu_face.draw(fb, ("health", "SENSOR MAP", None, "ANY KEY:BACK"), rows)


SCENES = [
    ("menu-paused", _menu_scene(PLAYING, ["menu", "W"])),
    ("menu-two-passes", _menu_scene(TWO_PASSES, ["menu"])),
    ("setup-ing", _menu_scene(ENDED, ["menu", "menu", "W", "W", "W", "menu"])),
    ("setup-byoyomi", _menu_scene(ENDED, ["menu", "menu"] + ["W"] * 9, _byoyomi())),
    ("confirm-undo", _menu_scene(PLAYING, ["menu", "W", "menu", "B"])),
    ("alert-wrong-colour", _alert(_MIDDLE, "wrong-colour", ["D4"])),
    ("alert-stone-moved", _alert(_SMALL, "stone-moved", ["D9", "E9"])),
    ("count-ing", _result),
    ("health-map", _health),
]
