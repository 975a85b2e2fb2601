"""The standalone control surface: menus driven by the board's four keys, as pure logic.

Keys in, screens and actions out; nothing here draws or touches hardware (menu_face.py draws a
screen onto a display, the app turns actions into tracker buttons and new games).

Keys (board_config.KEYS): "B" and "W" (the clock keys), "pause", "menu". The menu opens with
the menu key only while the clock is stopped: before it starts, paused with the pause key, in
the pause after two passes, after the end. While the clock runs the clock keys only ever press
the clock, so a menu never swallows a move (a play that resumes the clock closes the menu).
Inside a menu: Black's key moves up / makes a value smaller, White's key moves down / makes it
larger, the menu key selects (and leaves a value being changed), the pause key goes back (and
closes the menu from its first page).

Pages:
- main: what can be done now (`main_items`): CONFIRM RESIGN (while two stones and the press
  offer resignation, Ing 1991 Art. 9 "Resigning"), ACCEPT SHIFT (while a stone stands nudged,
  `stone-moved`), AGREE / DISPUTE (the pause after two passes), RESUME, UNDO, RESIGN, NEW GAME,
  SENSOR MAP. (The clock runs at an offer or a nudge: the pause key stops it first.)
- setup: the new game's settings (menus/settings.py; the last ones, remembered on flash) and
  START. Only what applies is listed (the handicap style with a handicap, a time system's own
  parameters).
- confirm: what concerns the players is confirmed with their own clock keys. Undo, agreement
  and abandoning a game in progress need both players (Ing 1991 Art. 8: a retraction is by
  agreement; Art. 1: the game ends when both agree); a dispute needs either one; a
  resignation is made by the resigning player's own key (who pressed says who resigns), an
  offered one by the offering player's key only; accepting a shift needs both (tracking/
  displacement.py: both players accept it).
- view: the sensor health map; any key goes back.

Actions (lists returned by `key`): ("button", name) with a session-log button name
(game_config.BUTTONS: agree, dispute, resume, undo, resign-B, resign-W, accept-shift), and
("new-game", settings) when START is selected.

`screen(status)` describes what both displays show while the menu is open:
- ("list", title, rows, footer): rows of (label, value, selected, editing);
- ("confirm", title, lines, footer): lines of text, then one line per player;
- ("health", title, None, footer): the health map (the app gives the face the rows).

`status` is `status_of(tracker)`: a small dict of what the menus need to know of the game.
"""

from ingrules import rulesets

from ingboard.game_config import HANDICAP_STYLES, RULES, TIME_SYSTEMS
from ingboard.menus import settings as st

ROWS = 6  # list rows a 128x64 face shows at once (menu_face.py)

# Setup items: (key, label). Values are listed in _VALUES or stepped by _step().
SETUP = (
    ("rules", "RULES"),
    ("komi", "KOMI"),
    ("handicap", "HANDICAP"),
    ("handicap_style", "HANDICAP STYLE"),
    ("system", "TIME"),
    ("basic_s", "BASIC TIME"),
    ("periods", "PERIODS"),
    ("period_s", "PERIOD"),
    ("stones", "STONES"),
    ("increment_s", "INCREMENT"),
    ("round_start_min", "ROUND START"),
    ("start", "START"),
)
_SYSTEMS = ("none", "absolute", "ing-pp", "byoyomi", "canadian", "fischer")
_VALUES = {
    "rules": RULES,
    "handicap": (0, 2, 3, 4, 5, 6, 7, 8, 9),
    "handicap_style": (None,) + HANDICAP_STYLES,
    "system": _SYSTEMS,
    "basic_s": tuple(
        m * 60 for m in (0, 1, 2, 3, 5, 10, 15, 20, 25, 30, 40, 45, 60, 75, 90, 120, 150, 180)
    ),
    "periods": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
    "period_s": (10, 15, 20, 30, 40, 45, 60, 90, 120, 180, 300, 420, 600, 900),
    "stones": (5, 10, 15, 20, 25, 30, 40, 50),
    "increment_s": (0, 2, 5, 10, 15, 20, 30, 45, 60),
    "round_start_min": (None, 0, 5, 10, 15, 20, 30, 45, 60),
}
_KOMI_LIMIT = 50
_SYSTEM_NAMES = {
    "none": "NONE",
    "absolute": "ABSOLUTE",
    "ing-pp": "ING PP",
    "byoyomi": "BYO-YOMI",
    "canadian": "CANADIAN",
    "fischer": "FISCHER",
}

FOOTER_LIST = "B:UP W:DOWN MENU:OK PAUSE:BACK"
FOOTER_EDIT = "B:LESS W:MORE MENU:OK"
FOOTER_CONFIRM = "YOUR CLOCK KEY:YES PAUSE:NO"
FOOTER_VIEW = "ANY KEY:BACK"

# Confirmations: name -> (title, text lines, both players needed).
_CONFIRM = {
    "agree": ("AGREE", ("THE DEAD STONES ARE OFF:", "COUNT THE GAME."), True),
    "dispute": ("DISPUTE", ("RESUME PLAY: THE REMOVALS", "ARE NOT AGREED."), False),
    "undo": ("UNDO", ("TAKE BACK THE LAST MOVE.",), True),
    "resign": ("RESIGN", ("THE PLAYER WHO RESIGNS", "PRESSES THEIR CLOCK KEY."), False),
    "abandon": ("NEW GAME", ("STOP THIS GAME AND SET", "UP A NEW ONE."), True),
    "accept-shift": ("ACCEPT SHIFT", ("THE NUDGED STONE COUNTS", "WHERE IT STANDS NOW."), True),
    # Ing 1991 Art. 9 "Resigning": the two stones and the press are confirmed by their player.
    "resign-offer": ("RESIGN", ("TWO STONES AND THE PRESS:", "THE GAME IS LOST."), False),
}
# Main page items that ask a confirmation -> its name in _CONFIRM.
_ASKS = {
    "AGREE": "agree",
    "DISPUTE": "dispute",
    "UNDO": "undo",
    "RESIGN": "resign",
    "ACCEPT SHIFT": "accept-shift",
    "CONFIRM RESIGN": "resign-offer",
}


def status_of(tracker):
    """What the menus need to know of the game in a tracker."""
    game = tracker.game
    clock = tracker.clock
    return {
        "phase": game.phase,  # game.PLAY, PAUSED (after two passes), ENDED
        "running": clock.running(),
        "paused": clock.paused,
        "started": clock.started,
        "plies": len(game.plies),
        "result": game.result,
        "moved": len(tracker.moved) > 0,  # a stone stands nudged (`stone-moved`)
        "resign_offer": tracker.resign_offer,  # colour offering resignation, 0 if none
    }


def main_items(status):
    """The main page's items for a game in this status."""
    phase = status["phase"]
    if phase == "ended":
        return ("NEW GAME", "SENSOR MAP")
    items = []
    if status.get("resign_offer"):
        items.append("CONFIRM RESIGN")
    if status.get("moved"):
        items.append("ACCEPT SHIFT")
    if phase == "paused":
        items += ["AGREE", "DISPUTE"]
    elif status["paused"]:
        items.append("RESUME")
    if status["plies"]:
        items.append("UNDO")
    items += ["RESIGN", "NEW GAME", "SENSOR MAP"]
    return tuple(items)


def visible_setup(settings):
    """The setup items that apply to these settings, in order."""
    system = settings["time"]["system"]
    out = []
    for key, label in SETUP:
        if key == "handicap_style" and not settings["handicap"]:
            continue
        if key in st.TIME_KEYS and key not in TIME_SYSTEMS[system]:
            continue
        out.append((key, label))
    return out


def _get(settings, key):
    if key == "system":
        return settings["time"]["system"]
    if key in st.TIME_KEYS:
        return settings["time"][key]
    return settings[key]


def _set(settings, key, value):
    if key == "system":
        settings["time"]["system"] = value
    elif key in st.TIME_KEYS:
        settings["time"][key] = value
    else:
        settings[key] = value


def _minutes(s):
    if s % 60:
        return "%d:%02d" % (s // 60, s % 60)
    return "%d MIN" % (s // 60)


def _komi_text(k):
    if k == int(k):
        return "%d" % k
    return "%d.5" % int(k) if k > 0 else "-%d.5" % int(-k)


def value_text(settings, key):
    """How a setting's value reads on the face."""
    if key == "start":
        return ""
    v = _get(settings, key)
    if key == "rules":
        return v.upper()
    if key == "komi":
        if v is None:
            return "RULES %s" % _komi_text(rulesets.get(settings["rules"]).komi)
        return _komi_text(v)
    if key == "handicap":
        return "NONE" if not v else "%d STONES" % v
    if key == "handicap_style":
        return "RULES" if v is None else v.upper()
    if key == "system":
        return _SYSTEM_NAMES[v]
    if key == "basic_s":
        return _minutes(v) if v else "NONE"
    if key == "periods":
        return "%d" % v
    if key == "period_s":
        return "%d S" % v if v < 60 else _minutes(v)
    if key == "stones":
        return "%d" % v
    if key == "increment_s":
        return "%d S" % v
    if key == "round_start_min":
        if v is None:
            return "OFF"
        return "AT START" if not v else "IN %d MIN" % v
    return ""


def _step(settings, key, d):
    """The value of `key` one step smaller (d=-1) or larger (d=1)."""
    v = _get(settings, key)
    if key == "komi":
        base = rulesets.get(settings["rules"]).komi
        k = (base if v is None else v) + d * 0.5
        if k < -_KOMI_LIMIT or k > _KOMI_LIMIT:
            return v
        # The ruleset's own komi reads as "RULES": it follows the rules when they change.
        return None if k == base else (int(k) if k == int(k) else k)
    values = _VALUES[key]
    if key == "basic_s" and _get(settings, "system") not in ("byoyomi", "canadian"):
        values = values[1:]  # basic time 0 is only for systems with overtime
    i = 0
    for j in range(len(values)):
        if values[j] == v:
            i = j
            break
        if v is not None and values[j] is not None and values[j] < v:
            i = j
    i += d
    if i < 0 or i >= len(values):
        return v
    return values[i]


class Menu:
    """The menus' state; see the module docstring. `settings` are the last remembered."""

    def __init__(self, settings=None):
        self.settings = st.copy(settings or st.DEFAULTS)
        self.page = None
        self.cursor = 0
        self.top = 0
        self.draft = None
        self.editing = False
        self.confirm = None  # confirmation name
        self.got = [False, False, False]  # by colour (1 B, 2 W)
        self.offer = 0  # colour whose resignation offer is being confirmed
        self.problem = False  # the game refused the settings at START (refused())
        self.before = None  # the remembered settings before the last START

    def is_open(self):
        return self.page is not None

    def close(self):
        self.page = None
        self.editing = False
        self.confirm = None
        self.draft = None

    def sync(self, status):
        """Called after every change of the game: a running clock closes the menu (a play in
        the pause resumed it), and the items follow the game (e.g. after an undo)."""
        if self.page is not None and status["running"]:
            self.close()
        elif self.page == "main":
            n = len(main_items(status))
            if self.cursor >= n:
                self.cursor = n - 1

    def _open(self, page, cursor=0):
        self.page = page
        self.cursor = cursor
        self.top = 0
        self.editing = False

    def key(self, name, status):
        """One debounced key press ("B", "W", "pause", "menu") -> list of actions."""
        self.problem = False
        if self.page is None:
            if name == "menu" and not status["running"]:
                self._open("main")
            return []
        if status["running"]:
            self.close()
            return []
        if self.page == "main":
            return self._main_key(name, status)
        if self.page == "setup":
            return self._setup_key(name)
        if self.page == "confirm":
            return self._confirm_key(name)
        # view: any key goes back
        self._open("main")
        return []

    def _move(self, name, n):
        if name == "B" and self.cursor > 0:
            self.cursor -= 1
        elif name == "W" and self.cursor < n - 1:
            self.cursor += 1
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + ROWS:
            self.top = self.cursor - ROWS + 1

    def _main_key(self, name, status):
        items = main_items(status)
        if name == "pause":
            self.close()
            return []
        if name != "menu":
            self._move(name, len(items))
            return []
        item = items[self.cursor]
        if item == "RESUME":
            self.close()
            return [("button", "resume")]
        if item == "SENSOR MAP":
            self._open("view")
            return []
        if item == "NEW GAME":
            if status["phase"] != "ended" and status["plies"]:
                self._ask("abandon")
            else:
                self._setup()
            return []
        self.offer = status.get("resign_offer", 0)
        self._ask(_ASKS[item])
        return []

    def _ask(self, what):
        self.confirm = what
        self.got = [False, False, False]
        self._open("confirm")

    def _confirm_key(self, name):
        what = self.confirm
        if name == "pause":
            self.confirm = None
            self._open("main")
            return []
        if name not in ("B", "W"):
            return []
        color = 1 if name == "B" else 2
        if what == "resign-offer" and color != self.offer:
            return []  # only the player who offered confirms their resignation
        self.got[color] = True
        both = _CONFIRM[what][2]
        if both and not (self.got[1] and self.got[2]):
            return []
        if what == "abandon":
            self.confirm = None
            self._setup()
            return []
        self.close()
        if what == "resign" or what == "resign-offer":
            return [("button", "resign-" + name)]
        return [("button", what)]

    def _setup(self):
        self.draft = st.copy(self.settings)
        self._open("setup")

    def refused(self, settings, remembered=None):
        """The game refused these settings at START: back to the setup page with them, the
        title asking to check them (until the next key); the remembered ones stay as they were
        (`remembered`: what they were before START)."""
        if remembered is not None:
            self.settings = st.copy(remembered)
        self.draft = st.copy(settings)
        self._open("setup")
        self.problem = True

    def _setup_key(self, name):
        items = visible_setup(self.draft)
        key = items[self.cursor][0]
        if self.editing:
            if name == "B" or name == "W":
                _set(self.draft, key, _step(self.draft, key, -1 if name == "B" else 1))
            else:
                self.editing = False
            return []
        if name == "pause":
            self.draft = None
            self._open("main")
            return []
        if name != "menu":
            self._move(name, len(items))
            return []
        if key != "start":
            self.editing = True
            return []
        chosen = self.draft
        before = self.settings
        self.settings = st.copy(chosen)
        self.close()
        self.before = before
        return [("new-game", st.copy(chosen))]

    def screen(self, status):
        """What the displays show now (see the module docstring); None when closed."""
        page = self.page
        if page is None:
            return None
        if page == "main":
            rows = []
            for i, item in enumerate(main_items(status)):
                rows.append((item, "", i == self.cursor, False))
            title = "GAME OVER" if status["phase"] == "ended" else "MENU"
            return ("list", title, self._window(rows), FOOTER_LIST)
        if page == "setup":
            rows = []
            for i, (key, label) in enumerate(visible_setup(self.draft)):
                value = value_text(self.draft, key)
                rows.append((label, value, i == self.cursor, self.editing and i == self.cursor))
            footer = FOOTER_EDIT if self.editing else FOOTER_LIST
            title = "CANNOT START: CHECK SETTINGS" if self.problem else "NEW GAME"
            return ("list", title, self._window(rows), footer)
        if page == "confirm":
            title, text, both = _CONFIRM[self.confirm]
            lines = list(text)
            for color, name in ((1, "BLACK"), (2, "WHITE")):
                if self.got[color]:
                    lines.append("%s: YES" % name)
                elif both or (self.confirm == "resign-offer" and color == self.offer):
                    lines.append("%s: PRESS YOUR KEY" % name)
            return ("confirm", title + "?", lines, FOOTER_CONFIRM)
        return ("health", "SENSOR MAP", None, FOOTER_VIEW)

    def _window(self, rows):
        return rows[self.top : self.top + ROWS]
