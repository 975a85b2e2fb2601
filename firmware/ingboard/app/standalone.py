"""The board on its own: the app's side of the menus, the faces shown, the remembered settings,
and the buzzer's cues.

app.py hands every debounced key to `key()` (in the game task, in order with the other
inputs), every event to `cue()` and `note()`, and each display to `draw()`. The logic of the
menus is menus/menu.py; this module turns its actions into what the app does anyway for a host:
("button", name) is a button input (recorded in the session log like any button), and
("new-game", settings) writes the settings to flash (storage_paths.SETTINGS, via a temporary
file and a rename, so a power cut leaves the old or the new file) and starts the game.

Keys while no menu is open: the clock keys press the clock, the pause key pauses or resumes,
the menu key opens the menu (only while the clock is stopped: menus/menu.py).

What each face shows, first that applies:
1. the menu, while it is open (both faces);
2. while a host calibrates the board (the calibration mode, app/inputs.py): CALIBRATING
   (faces/calibrating_face.py) - the stones and bowls are not the game's then;
3. the sensor health map, for HEALTH_MS after a calibration (or until a key);
4. the newest alert still standing (tracker alerts until the board is put right; bowl and
   sensor alerts and refused buttons for ALERT_MS): a mini-board with the point(s) (showing
   the stone physically there) and what to do;
5. after a counted end, the count, the fill-in plan and the result;
6. the clock face.
"""

from ingrules.board import BLACK, WHITE
from micropython import const

from ingboard import cues, gc_policy, storage_paths
from ingboard.faces import clock_face
from ingboard.tracking.tracker import Tracker

# The menus (menus/menu.py, menu_face.py) and the board faces (board_face.py) are imported when
# first shown, and the Menu and its modules are dropped when it closes: most of a game shows
# only the clock, and on a Pico with .mpy on littlefs their code would take heap from the game
# (README "Device twin", memory). `settings` keeps the remembered settings while no menu is open.
# The settings' own code (menus/settings.py and the config_check.py it imports) is used at the
# start, at a new game and in the menu: imported for each use and dropped after it (_st(),
# _drop_st()): ~1.8 KB of the heap on the twin's ROMFS image all game long.

KEY_NAMES = ("B", "W", "pause", "menu")
HEALTH_MS = const(30000)
ALERT_MS = const(10000)  # alerts the tracker does not withdraw itself (bowls, sensors)
_SHOWN = const(4)  # alerts kept for the faces
# A clock face not running is looked at again at least this often: what it shows changes
# with the clock's events (noted), its turn, start, pause or hold (paint's look), and the look
# is a safety net; at 2 s it was ~1.8 ms of the RP2040 every 2 s (issue 32: an idle board).
_LOOK_MS = const(6000)
# Alerts with no board condition the tracker withdraws: shown for ALERT_MS (the bowls and
# sensors; a button the rules refuse at this moment, e.g. AGREE before the pause).
_TIMED = ("bowl-mismatch", "sensor-fault", "not-your-turn")
# Clock cues sounded from the tracker's `cue` events (the others are read off the clock state:
# periods, penalty points, the forfeit).
_WARNING_CUES = (cues.BASIC_ENDING, cues.POINTS_NEXT, cues.FORFEIT_NEXT, cues.COUNTDOWN)


def _st():
    from ingboard.menus import settings

    return settings


def _drop_st():
    gc_policy.drop("ingboard.menus.settings")
    gc_policy.drop("ingboard.config_check")


def _sooner(wait, left):
    # The display task's wait: `left` ms when a face changes sooner than `wait`.
    return left if 0 < left < wait else wait


class Standalone:
    def __init__(self, app):
        self.app = app
        self.path = app.store.root + storage_paths.SETTINGS
        self.last_clock = {}  # each side's clock state at the last clock event (cue())
        self.settings = self._load()
        self.menu = None  # a menus/menu.Menu while the menu is open
        self.alerts = []  # newest last
        self.health_until = -1
        self.shown = None  # the face drawn last: menu, health, alert, result or clock
        self._painted = {}  # color -> (fb, kind, what it shows) of the last whole paint()
        # What the last paint() changed, for the display task to send: rows [first, end), then
        # columns [first, end) (first >= end: nothing).
        self.window = [0, 0, 0, 0]
        # The clock face is looked at again (its parts made) only when its time shown can
        # have changed (_until: its next whole second while it runs), something happened
        # (_noted: events and keys) or the clock changed state (_looks) - making the parts
        # was ~4 ms of the RP2040's time per face, twice a second (issue 20).
        self._noted = 0
        self._until = {}
        self._looks = {}
        # The result face's (count, plan, rows), made once for a count: the board's rows were
        # ~10 ms of the RP2040, made again at every look at the face (issue 32).
        self._result = None

    # -- settings on flash ---------------------------------------------------------------------

    def _load(self):
        settings = self._read()
        _drop_st()
        return settings

    def _read(self):
        st = _st()
        for path in (self.path, self.path + ".tmp"):
            try:
                with open(path) as f:
                    return st.parse(f.read())
            except OSError:
                continue  # not there: the next, or never saved
            except ValueError as exc:
                self.app.warn("settings not read (%s): the defaults are used" % exc)
                break
        return st.defaults()

    def save(self, settings):
        import os

        tmp = self.path + ".tmp"
        text = _st().text(settings)
        _drop_st()
        with open(tmp, "w") as f:
            f.write(text)
        try:
            os.rename(tmp, self.path)  # littlefs replaces the old file in one step
        except OSError:
            # A file system whose rename does not replace (FAT): a power cut between the two
            # steps leaves only the .tmp, which _load() reads.
            os.remove(self.path)
            os.rename(tmp, self.path)

    def config(self, size):
        """The config of a new game with the remembered settings on a board of `size`."""
        config = _st().config(self.settings, size)
        _drop_st()
        return config

    def menu_open(self):
        return self.menu is not None and self.menu.is_open()

    def _close_menu(self):
        # The menu's remembered settings stay; its code and state go with it (the modules
        # too: gc_policy.drop, loaded again when the menu next opens).
        if self.menu is not None and not self.menu.is_open():
            self.settings = self.menu.settings
            self.menu = None
            gc_policy.drop("ingboard.menus.menu")
            gc_policy.drop("ingboard.faces.menu_face")
            _drop_st()

    # -- keys ----------------------------------------------------------------------------------

    def key(self, t, index):
        """One debounced key press at board time t."""
        self._noted += 1
        app = self.app
        name = KEY_NAMES[index]
        self.health_until = -1
        tracker = app.tracker
        if not self.menu_open() and name != "menu":
            if name == "pause":
                button = "resume" if tracker.clock.paused else "pause"
                app.step((app.BUTTON, t, button, None))
            else:
                app.step((app.PRESS, t, BLACK if name == "B" else WHITE, None))
            return
        from ingboard.menus.menu import Menu, status_of

        if self.menu is None:
            self.menu = Menu(self.settings)
        try:
            self._menu_key(t, name, status_of(tracker))
        finally:
            self._close_menu()

    def _menu_key(self, t, name, status):
        app = self.app
        menu = self.menu
        for action in menu.key(name, status):
            if action[0] == "button":
                app.step((app.BUTTON, t, action[1], None))
            else:
                settings = action[1]
                size = app.tracker.config["size"]
                try:
                    config = _st().config(settings, size)
                    Tracker(config)  # what the game refuses, before anything changes
                except ValueError as exc:
                    app.warn("new game refused: %s" % exc)
                    menu.refused(settings, menu.before)
                    self.menu = menu  # open again, on the setup page
                    return
                try:
                    self.save(settings)
                except OSError as exc:
                    app.warn("settings not saved: %s" % exc)
                app.new_game(config)
                self.alerts = []

    def after(self):
        """After every input: the menu follows the game (a running clock closes it)."""
        if self.menu is not None:
            from ingboard.menus.menu import status_of

            self.menu.sync(status_of(self.app.tracker))
            self._close_menu()

    def note(self, event, t):
        self._noted += 1
        if event["type"] == "alert":
            # Only what the face shows: the event's sentence (~0.1 KB a bowl's) is the link's.
            self.alerts.append((t, {"code": event["code"], "points": event.get("points") or []}))
            if len(self.alerts) > _SHOWN:
                self.alerts.pop(0)

    def show_health(self, t):
        self.health_until = t + HEALTH_MS

    # -- faces ---------------------------------------------------------------------------------

    def _standing(self, t):
        """The newest alert still standing, or None."""
        tracker = self.app.tracker
        active = getattr(tracker, "active", None) or {}
        board = tracker.game.board
        for i in range(len(self.alerts) - 1, -1, -1):
            at, event = self.alerts[i]
            code = event["code"]
            points = event.get("points") or []
            for key in active:
                if isinstance(key, tuple) and key[0] == code:
                    p = key[1]
                    if not points or (p >= 0 and board.name(p) == points[0]):
                        return event
            if code in _TIMED and t - at < ALERT_MS:
                return event
        return None

    def _alert_rows(self, alert):
        """The game's position, except that an alert's points show what is physically there
        when that is a stone (the wrong-colour or extra stone to take back); a missing stone
        shows where the game has it."""
        tracker = self.app.tracker
        board = tracker.game.board
        rows = board.rows()
        seen = getattr(tracker, "seen", None)
        if seen is None:
            return rows
        size = board.size
        for name in alert.get("points") or ():
            try:
                p = board.parse(name)
            except ValueError:
                continue
            v = seen[p]
            if v == BLACK or v == WHITE:
                col, row = board.col_row(p)
                r = size - 1 - row
                line = rows[r]
                rows[r] = line[:col] + ("B" if v == BLACK else "W") + line[col + 1 :]
        return rows

    def _face(self, t):
        """(kind, what it shows) of the face to show at t: "menu" (screen, health rows),
        "calibrating" None, "health" rows, "alert" (rows, alert), "result" (count, plan, rows),
        or "clock" None (the clock faces differ by side: clock_face.parts)."""
        # (Asked at every paint of each side: each face's making is a call of its own, and
        # this one's frame stays small enough for the C stack - drivers/keys.py says why.)
        menu = self.menu
        if menu is not None and menu.is_open():
            return self._menu_face(menu)
        if self.app.calibrating is not None:  # (its lapse: the bowl task's, each 100 ms)
            return "calibrating", None
        # The board's rows joined into one str (board_face.py): what a face shows is kept as
        # long as it shows (paint()), one object where the list of rows was 20.
        if t < self.health_until:
            return "health", "".join(self.app.hw["classifier"].health_rows())
        if self.alerts:
            alert = self._standing(t)
            if alert is not None:
                return "alert", ("".join(self._alert_rows(alert)), alert)
        tracker = self.app.tracker
        if tracker.counted is not None and tracker.game.phase == "ended":
            return self._result_face(tracker)
        self._result = None  # (a new game: the last count's face not kept)
        return "clock", None

    def _menu_face(self, menu):
        from ingboard.menus.menu import status_of

        screen = menu.screen(status_of(self.app.tracker))
        rows = None
        if screen[0] == "health":
            rows = self.app.hw["classifier"].health_rows()
        return "menu", (screen, rows)

    def _result_face(self, tracker):
        shown = self._result
        if shown is None or shown[0] is not tracker.counted or shown[1] is not tracker.plan:
            rows = "".join(tracker.game.board.rows())
            shown = self._result = (tracker.counted, tracker.plan, rows)
        return "result", shown

    def _whole(self, fb, kind, what):
        for _ in self._whole_steps(fb, kind, what):
            pass

    def _whole_steps(self, fb, kind, what):
        # A face other than the clock, drawn whole a piece at a time (a generator): a full
        # board's mini-board is ~0.2 s of the RP2040 (issue 20, the end of a long game).
        if kind == "menu":
            from ingboard.faces import menu_face

            return menu_face.draw(fb, what[0], what[1])
        if kind == "calibrating":  # (its code dropped after: calibrating_face.draw)
            from ingboard.faces import calibrating_face

            return calibrating_face.draw(fb)
        from ingboard.faces import board_face

        if kind == "health":
            board_face.health(fb, what)
        elif kind == "alert":
            yield from board_face.alert_steps(fb, what[0], what[1])
        else:
            yield from board_face.result_steps(fb, what[0], what[1], what[2])

    def _paired(self, clock, color):
        # Before the start, the player the director paired on this side (the club relay's
        # pairing, relay_feed.face_names) where the face shows the moves; None without one.
        relay = self.app.relay
        if relay is None or clock.started:
            return None
        return self._pairing(relay, color)

    def _pairing(self, relay, color):
        try:
            names = relay.face_names()
        except Exception:  # noqa: BLE001 (the relay never stops the faces)
            return None
        return names[0 if color == BLACK else 1] if names else None

    def wait_ms(self, t, period):
        """How long the display task may sleep from board time t: its period, or less when a
        running clock's time shown changes sooner (each second on time)."""
        until = self._until  # by side: BLACK's, WHITE's (paint())
        return _sooner(_sooner(period, until.get(BLACK, 0) - t), until.get(WHITE, 0) - t)

    def draw(self, fb, color, t):
        """Paint color's face (BLACK or WHITE) at board time t, whole."""
        kind, what = self._face(t)
        self._painted[color] = None  # paint() starts again from a whole face
        if kind == "clock":
            clock = self.app.tracker.clock
            clock_face.draw(fb, clock, color, t)
            name = self._paired(clock, color)
            if name:
                clock_face.draw_part(fb, 4, name, color)
        else:
            self._whole(fb, kind, what)
        self.shown = kind

    def unchanged(self, fb, color, t):
        """True when paint(fb, color, t) would draw nothing on a clock face: paint()'s own
        first test, without its generator and its look tuple (~190 bytes of garbage a paint
        of an unchanged face, four paints a second on an idle board; the display task asks
        this first)."""
        if t >= self._until.get(color, 0):
            return False
        last = self._painted.get(color)
        if last is None or last[0] is not fb or last[1] != "clock" or self._face(t)[0] != "clock":
            return False
        # (One name for the last paint and then its look, and no more: a frame of at most 11
        # words, which MicroPython keeps on the C stack - drivers/keys.py says why.)
        last = self._looks.get(color)
        clock = self.app.tracker.clock
        return (
            last is not None
            and last[0] is clock
            and last[1] == self._noted
            and last[2] == clock.turn
            and last[3] == clock.started
            and last[4] == clock.paused
            and last[5] == clock.held
            and last[6] == self._paired(clock, color)
        )

    def paint(self, fb, color, t):
        """Bring color's face on fb up to date at board time t, a piece at a time (issue 20,
        "A CPU budget": the display task yields to the scan between pieces): a generator of
        the (first row, rows) band each piece changed (rows 0: none). Only what changed since
        the last paint() of this fb is drawn - nothing while the face stays the same; of the
        clock face only its parts that changed (clock_face.parts), so the frame is the same as
        a whole draw(). `window`: the rows and columns it changed."""
        self.window[0] = self.window[1] = 0  # nothing yet
        kind, what = self._face(t)
        self.shown = kind
        last = self._painted.get(color)
        same = last is not None and last[0] is fb and last[1] == kind
        if kind != "clock":
            if same and last[2] == what:
                return
            other = self._painted.get(WHITE if color == BLACK else BLACK)
            if other is not None and other[1] == kind and other[2] == what:
                what = other[2]  # the other face's rows: one copy kept for both
            self._painted[color] = None  # until the face is whole
            # What it shows made (a result's rows, an alert's) is a piece of its own: a scan
            # may run before the drawing (issue 32: 28 ms in one piece at a long game's end).
            yield 0, 0
            for _ in self._whole_steps(fb, kind, what):
                yield 0, clock_face.HEIGHT  # a piece drawn: the display task lets a scan run
            self._painted[color] = (fb, kind, what)
            self._changed(0, clock_face.HEIGHT, 0, clock_face.WIDTH)
            yield 0, clock_face.HEIGHT
            return
        clock = self.app.tracker.clock
        name = self._paired(clock, color)
        look = (clock, self._noted, clock.turn, clock.started, clock.paused, clock.held, name)
        if same and t < self._until.get(color, 0) and look == self._looks.get(color):
            return  # nothing shown can have changed
        shown, stays = clock_face.parts_until(clock, color, t)
        if name:
            shown = shown[:4] + (name,)
        self._until[color] = t + (_LOOK_MS if stays is None else stays)
        self._looks[color] = look
        old = last[2] if same else None
        if old is None:
            # A whole face: the parts' text (~24 ms of the RP2040's time the first time) is a
            # piece of its own, an empty band (issue 20: a scan may run before the drawing).
            yield 0, 0
        self._painted[color] = None
        if old is None:
            fb.fill(0)
        for i in range(clock_face.PARTS):
            if old is None or shown[i] != old[i]:
                clock_face.draw_part(fb, i, shown[i], color, old is not None, old and old[i])
                y, h = clock_face.band(i)
                self._changed(y, h, clock_face.COLUMNS[0], clock_face.COLUMNS[1])
                yield y, h
        self._painted[color] = (fb, kind, shown)

    def _changed(self, y, h, x0, x1):
        # paint(): rows y..y+h-1 of columns x0..x1-1 changed (window).
        win = self.window
        if win[0] >= win[1]:
            win[0] = y
            win[1] = y + h
            win[2] = x0
            win[3] = x1
            return
        win[0] = min(win[0], y)
        win[1] = max(win[1], y + h)
        win[2] = min(win[2], x0)
        win[3] = max(win[3], x1)

    def cue(self, event, t):
        """The buzzer's cue for an event the app hands out, if it has one: the clock's
        periods, penalty points and forfeit read off its state, the timekeeper's warnings,
        an alert."""
        buzzer = self.app.hw.get("buzzer")
        kind = event["type"]
        cue = None
        if kind == "clock":
            cue = cues.clock_cue(event, self.last_clock)
        elif kind == "alert":
            cue = cues.BASIC_OVER  # one long tone: look at the board
        elif kind == "cue" and event["cue"] in _WARNING_CUES:
            cue = event["cue"]  # the timekeeper's warnings (Ing 1991 Art. 10), the countdown
        if cue is not None and buzzer is not None:
            buzzer.play(cues.pattern(cue), t)
