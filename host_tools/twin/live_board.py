"""The virtual board's page playing on the device twin (`ingboard twin --hardware --sim`): a
person places stones and presses keys on the page, the twin's hardware models get them (each
stone placed or lifted becomes the Hall grid's field, each press the key held, the bowls'
weights follow the stones taken and given back: a stone taken is out of its bowl, as the
firmware reads it, before it lands on the grid), and the real rp2 firmware on the emulated
RP2040 decides everything; the page shows the twin's two displays live and its events. A 9x9
or 13x13 game is played in the 19x19 grid's lower-left corner, as players do on a full board.

`TwinBoard` is sim_server.LiveBoard with every change also sent to the twin's models (the
LiveBoard's own tracker stays as the page's drawing of the board: marks, the count's drawing;
the game is the twin's: its events and its displays). `TwinSession` is sim_server.Session on
such boards, with the wall clock as board time (the twin runs on it), the clock faces replaced
by the twin's displays (`/api/clock/B.png`), and the twin's events as the page's event log.

`start(work_dir)` builds the firmware's ROMFS image, boots the twin with it, attaches the
hardware (an empty board, full bowls), puts main.py and the bowls' calibration on littlefs,
starts the app and returns the running Twin (free running on the wall clock).
"""

import json
import os
import threading
import time

from ingboard.tracking.region import grid_rows
from ingrules.board import BLACK, WHITE

from host_tools.errors import InputError
from host_tools.sim_server import LiveBoard, Session
from host_tools.twin import deploy, frames, hardware, scenario
from host_tools.twin.process import TwinError

GRID_SIZE = 19  # board_config's grid (every variant's)
# A player's press (emulated ms): the keys' edge interrupts time each press (drivers/keys.py),
# so a short one counts. A key still down cannot be pressed again: press() waits for it.
KEY_HOLD_MS = 150
# A stone taken from its bowl: the firmware reads the bowl this many times (10 a second) before
# the stone appears on the grid - the hand's way from the bowl to the board.
BOWL_READS = 3
# A key is held only once the firmware has read the grid as it was last set over this many
# whole scans (each reads every one of the grid's points once): a press the firmware takes
# before any scan saw the stone just placed is a pass (tracking/presses.py). The assist's
# press follows its stone by a time of the wall clock (sim_assist.PRESS_AFTER_MS), and a
# loaded machine runs the emulator slower than that clock: the firmware's scans are counted.
SCANS_BEFORE_KEY = 2
# What the board waits for from the firmware (the bowl's reads, the grid's scans, a key up)
# takes at most this long by the wall clock, or TwinError: the emulator may run much slower
# than the wall clock, but a twin that does not get there in this time has stopped.
TWIN_WAIT_S = 60.0
FRAME_POLL_S = 0.2
_HOST_COMMAND_BUTTONS = ("agree", "dispute", "undo", "resign-B", "resign-W")


class TwinLink:
    """The app's serial lines (JSON) and the twin's display frames, collected as they come."""

    def __init__(self, twin, displays_dir=None):
        self.twin = twin
        self.lock = threading.Lock()
        self.buffer = b""
        self.events = []  # the app's events since the page's current game started
        self.replies = []
        self.noise = []
        self.latest = {}  # display name -> 1024 bytes of its latest picture
        self.writer = frames.FrameWriter(displays_dir) if displays_dir else None
        self.before = twin.on_serial
        twin.on_serial = self._serial
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._poll_frames, daemon=True)
        self.thread.start()

    def _serial(self, data):
        if self.before:
            self.before(data)
        with self.lock:
            self.buffer += data
            while b"\n" in self.buffer:
                line, _, self.buffer = self.buffer.partition(b"\n")
                self._line(line.strip())

    def _line(self, line):
        if not line:
            return
        try:
            msg = json.loads(line)
        except ValueError:
            self.noise.append(line.decode("utf-8", "replace"))
            del self.noise[:-20]
            return
        if not isinstance(msg, dict):
            return
        if msg.get("type") in ("ok", "error", "pong", "state", "file", "games", "plies"):
            self.replies.append(msg)
            del self.replies[:-20]
        else:
            self.events.append(msg)

    def send(self, cmd):
        self.twin.write((json.dumps(cmd) + "\n").encode())

    def new_game(self):
        with self.lock:
            self.events = []

    def _poll_frames(self):
        import base64

        while not self.stop.wait(FRAME_POLL_S):
            try:
                got = self.twin.model("frames")
            except Exception:  # noqa: BLE001 (the twin is gone: nothing more to show)
                return
            for f in got:
                self.latest[f["name"]] = base64.b64decode(f["bits"])
            if got and self.writer is not None:
                self.writer.add(got)

    def display_png(self, name):
        import io

        bits = self.latest.get(name)
        if bits is None:
            bits = bytes(frames.WIDTH * frames.HEIGHT // 8)
        out = io.BytesIO()
        frames.image(bits, scale=2).save(out, format="PNG")
        return out.getvalue()

    def close(self):
        self.stop.set()
        self.thread.join(timeout=2)
        self.twin.on_serial = self.before


class TwinBoard(LiveBoard):
    """A LiveBoard whose every change also reaches the twin's hardware models."""

    def __init__(self, config, link, seed=0):
        self.link = link
        # The grid model's `reads` (its sensors' conversions, every scan's size*size) the
        # firmware must have made before the next key is held (SCANS_BEFORE_KEY).
        self.grid_reads_due = 0
        super().__init__(config, seed)
        self._to_twin()

    def _to_twin(self, taken=None):
        """The board and both bowls to the twin's models. `taken` ("B"/"W"): a stone of that
        colour just came out of its bowl onto the board - as a hand carries it, its bowl is
        lighter before the stone lands: the twin's bowl gets its weight first, and the grid
        shows the stone only once the firmware has read that weight (_bowl_read)."""
        twin = self.link.twin
        if taken is not None:
            self._bowl_read(taken)
        # A smaller game lies in the grid's lower-left corner (firmware tracking/region.py).
        reads = twin.model("grid", position="/".join(grid_rows(self.rows(), GRID_SIZE)))["reads"]
        # The scan under way at the change may have read the point before it: one scan more.
        self.grid_reads_due = reads + (SCANS_BEFORE_KEY + 1) * GRID_SIZE * GRID_SIZE
        for c, name in ((BLACK, "B"), (WHITE, "W")):
            twin.model("bowl", colour=name, grams=round(self.bowls[c].reading(self.t), 1))

    def _bowl_read(self, name):
        # The new weight, then BOWL_READS complete reads of that HX711 by the firmware (its
        # driver keeps the median of the last three conversions; the first read after the
        # change may be of a conversion made before it).
        twin = self.link.twin
        grams = round(self.bowls[BLACK if name == "B" else WHITE].reading(self.t), 1)
        due = twin.model("bowl", colour=name, grams=grams)["reads"] + BOWL_READS
        self._wait_twin(
            lambda: twin.model("bowl", colour=name)["reads"] >= due,
            "read %s's bowl %d times after its stone was taken" % (name, BOWL_READS),
        )

    def _wait_twin(self, done, what):
        """Poll `done()` until true; TwinError naming `what` after TWIN_WAIT_S (wall clock)."""
        deadline = time.monotonic() + TWIN_WAIT_S
        while not done():
            if time.monotonic() >= deadline:
                raise TwinError(
                    "the twin's firmware did not %s in %d s of the wall clock"
                    % (what, TWIN_WAIT_S)
                )
            time.sleep(0.02)

    def place(self, name, color):
        out = super().place(name, color)
        self._to_twin(taken=color)
        return out

    def lift(self, name):
        out = super().lift(name)
        self._to_twin()
        return out

    def press(self, color):
        # The twin made ready first: a TwinError leaves the page's game as it was.
        self._key_ready(color)
        out = super().press(color)
        self.link.twin.model("key", key=color, hold_ms=KEY_HOLD_MS)
        return out

    def _key(self, name):
        self._key_ready(name)
        self.link.twin.model("key", key=name, hold_ms=KEY_HOLD_MS)

    def _key_ready(self, name):
        # The grid as it was last set, read over SCANS_BEFORE_KEY whole scans; the key up
        # (the emulated hold may run slower than the wall clock).
        twin = self.link.twin
        due = self.grid_reads_due
        self._wait_twin(
            lambda: twin.model("grid")["reads"] >= due,
            "scan the grid %d times after its last change, before key %s"
            % (SCANS_BEFORE_KEY, name),
        )
        self._wait_twin(
            lambda: not twin.model("key")[name]["down"],
            "release key %s before its next press" % name,
        )

    def button(self, name):
        out = super().button(name)
        if name in ("pause", "resume"):
            self._key(scenario.PAUSE_KEY)
        elif name in _HOST_COMMAND_BUTTONS:
            self.link.send({"cmd": "button", "name": name})
        return out


class TwinSession(Session):
    """Session on TwinBoards: board time is the wall clock; the twin decides the game."""

    def __init__(self, link, config=None, assist=True, counsel=None, engine=None):
        self.link = link
        super().__init__(config, engine=engine, assist=assist, counsel=counsel)

    def _make_board(self, config):
        return TwinBoard(config, self.link)

    def new(self, config, assist=None):
        size = config.get("size") if isinstance(config, dict) else None
        if not isinstance(size, int) or isinstance(size, bool) or size > GRID_SIZE:
            raise InputError(
                "the twin's board is %dx%d: choose a size up to %d" % ((GRID_SIZE,) * 3)
            )
        super().new(config, assist)
        self.link.new_game()
        self.link.send({"cmd": "new-game", "config": self.board.config})

    def handle(self, action, body):
        if action == "wait":
            raise InputError("the twin runs on the wall clock")
        state = super().handle(action, body)
        with self.link.lock:
            events = list(self.link.events)
        moves = [e for e in events if e.get("type") in ("move", "pass")]
        end = [e for e in events if e.get("type") == "end"]
        state["board_events"] = state["events"]  # the page's own tracker (its drawing)
        state["events"] = events  # what the twin's firmware decided
        state["twin"] = {
            "moves": [
                {"n": e["n"], "c": e["color"], "p": e.get("point") or "pass"} for e in moves
            ],
            "result": end[-1]["result"] if end else None,
            "noise": list(self.link.noise[-5:]),
            "result_faces": self._result_faces() if end else None,
        }
        return state

    def _result_faces(self):
        """{display: True when it shows the result face}: the twin's latest picture against
        the face the firmware's code draws for the page's own count of the same game (None
        while the page's board has not ended)."""
        from host_tools.sim_server import result_face

        tracker = self.board.tracker
        if tracker.game.phase != "ended":
            return None
        want = result_face(tracker).tobytes()
        out = {}
        for name in ("B", "W"):
            bits = self.link.latest.get(name)
            out[name] = bits is not None and frames.image(bits, scale=2).tobytes() == want
        return out

    def clock_png(self, color):
        return self.link.display_png(color)


def start(work_dir, seed=1):
    """Boot a twin with the firmware (ROMFS), its hardware and the app running; (twin, link
    not yet made: the caller's). The twin then runs freely on the wall clock."""
    from host_tools import FIRMWARE
    from host_tools.commands import flash
    from host_tools.twin.process import Twin

    built = flash.build(FIRMWARE, os.path.join(work_dir, "mpy"), "armv6m")
    romfs = os.path.join(work_dir, "ingboard.romfs")
    with open(romfs, "wb") as f:
        f.write(flash.romfs_image(built, work_dir))
    twin = Twin("romfs", romfs_image=romfs)
    twin.start()
    try:
        hardware.attach(twin, variant="pico", seed=seed)
        hardware.fill_bowls(twin)
        entry = {}
        for board_path, path in built:
            if not board_path.startswith("/ingboard/"):
                with open(path, "rb") as f:
                    entry[board_path] = f.read()
        entry["/bowls.json"] = hardware.bowl_calibration().encode()
        deploy.put_files(twin, entry)
        deploy.start_app(twin)
        scenario.Player(twin).wait_until_running()
        twin.take_output()
        twin.go(realtime=True)
    except BaseException:
        twin.close()
        raise
    return twin


def wait_for(predicate, timeout_s):
    """Poll `predicate()` until true (returns its value) or TimeoutError."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise TimeoutError("not reached in %d s" % timeout_s)
