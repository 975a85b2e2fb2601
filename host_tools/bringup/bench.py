"""Where the bring-up walk runs: a real board (a person does what it asks) or the device twin
(the walk does it itself, on the twin's hardware models, with wiring faults if asked).

Both offer the same methods to walk.py:
- `request(cmd, reply_type)` -> the board's reply (DeviceError on an error reply or none);
- `clear()`, `stones(step, indexes)`: the board empty / a stone on each of those points;
- `hold(point)`: the next stone held over a point (the pole tester);
- `key(name, window_ms)` -> the `probe keys` reply while that key is pressed;
- `load(colour, grams, spot)`: the known weight on a platform (grams 0: nothing);
- `say(text)`: a line for the person (the twin logs it).
"""

import json
import os
import tempfile

from host_tools.bringup import plan
from host_tools.device import DeviceError

HUMAN_KEY_WINDOW_MS = 8000
TWIN_KEY_WINDOW_MS = 300
TWIN_KEY_MARGIN_MS = 20000  # released when the reply comes


class BoardBench:
    """A real board over USB: every physical step is a prompt; `answers` (a list of lines, or
    None for the terminal) answers them in order - Enter (an empty line) goes on, `q` stops."""

    key_window_ms = HUMAN_KEY_WINDOW_MS

    def __init__(self, dev, size, answers=None, out=print):
        self.dev = dev
        self.size = size
        self.answers = answers
        self.out = out

    def say(self, text):
        self.out(text)

    def ask(self, text):
        if self.answers is None:
            try:
                answer = input(text + " [Enter] ")
            except EOFError:
                answer = "q"
        else:
            self.out(text)
            answer = self.answers.pop(0) if self.answers else "q"
        if answer.strip().lower() in ("q", "quit"):
            raise KeyboardInterrupt
        return answer

    def request(self, cmd, reply_type, timeout_s=60.0, send=True):
        from host_tools.commands.calibrate import request

        if send:
            return request(self.dev, cmd, reply_type, timeout_s)
        return _reply(self.dev, reply_type, timeout_s)

    def clear(self):
        self.ask(
            "Take every stone off the board, empty both bowls' platforms, hands off the keys."
        )

    def stones(self, step, indexes):
        for row in plan.diagram(self.size, indexes):
            self.out("  " + row)
        self.ask(
            'Clear the board, then put a Black stone on each X above (%d stones, step "%s").'
            % (len(indexes), step)
        )

    def hold(self, point):
        self.ask("Hold the next stone flat over %s, centred (q to stop)." % point)

    def key(self, name, window_ms):
        self.dev.write(
            (json.dumps({"cmd": "probe", "what": "keys", "ms": window_ms}) + "\n").encode()
        )
        self.out("Press key %s now, once (within %d s)." % (name, window_ms // 1000))
        return self.request({}, "probe", window_ms / 1000 + 10, send=False)

    def load(self, colour, grams, spot):
        if grams:
            self.ask(
                "Put the %g g weight on %s's platform, at its %s end." % (grams, colour, spot)
            )
        else:
            self.ask("Take the weight off %s's platform." % colour)


def _reply(dev, reply_type, timeout_s):
    """The next reply of `reply_type` to a command already sent (events are skipped)."""
    import time

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        raw = dev.readline(1.0)
        if raw is None:
            continue
        try:
            msg = json.loads(raw)
        except ValueError:
            continue
        if isinstance(msg, dict) and msg.get("type") == reply_type:
            return msg
        if isinstance(msg, dict) and msg.get("type") == "error":
            raise DeviceError("the board refused: %s" % msg.get("text"))
    raise DeviceError("no %s reply from the board in %d s" % (reply_type, timeout_s))


class TwinBench:
    """The device twin running the real firmware, its hardware models wired as `faults`
    (host_tools/twin/faults.py texts) say; it does each step itself."""

    key_window_ms = TWIN_KEY_WINDOW_MS

    def __init__(self, faults=(), variant="pico", log=None):
        self.variant = variant
        self.log = log or (lambda text: None)
        self.twin = None
        self.player = None
        self._tmp = None
        self.texts = list(faults)

    def start(self):
        from host_tools import FIRMWARE
        from host_tools.commands import flash
        from host_tools.twin import deploy, faults, hardware, scenario
        from host_tools.twin.process import Twin

        self.spec = faults.parse(self.texts, self.variant)
        self._tmp = tempfile.TemporaryDirectory(prefix="ingboard-bringup-")
        tmp = self._tmp.name
        built = flash.build(FIRMWARE, os.path.join(tmp, "mpy"), "armv6m")
        romfs = os.path.join(tmp, "ingboard.romfs")
        with open(romfs, "wb") as f:
            f.write(flash.romfs_image(built, tmp))
        self.twin = Twin("romfs", romfs_image=romfs).start()
        self.cfg = hardware.attach(self.twin, variant=self.variant, faults=self.spec)
        self.size = self.cfg["grid"]["size"]
        entry = {b: open(p, "rb").read() for b, p in built if not b.startswith("/ingboard/")}
        deploy.put_files(self.twin, entry)
        deploy.start_app(self.twin)
        self.player = scenario.Player(self.twin)
        self.player.wait_until_running()
        return self

    def rewire(self, texts):
        """The same booted twin with other faults (tests reuse one twin)."""
        from host_tools.twin import faults, hardware

        self.texts = list(texts)
        self.spec = faults.parse(self.texts, self.variant)
        hardware.set_faults(self.twin, self.spec)
        self.clear()
        for colour in ("B", "W"):
            self.twin.model("bowl", colour=colour, grams=0)

    def close(self):
        if self.twin is not None:
            self.twin.close()
            self.twin = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    def say(self, text):
        self.log(text)

    def request(self, cmd, reply_type, max_ms=30000, send=True):
        if send:
            self.player.send(cmd)
        seen = len(self.player.messages)
        msg = self.player.wait_for(lambda m: m.get("type") in (reply_type, "error"), max_ms=max_ms)
        del seen
        self.player.messages.clear()
        if msg.get("type") == "error":
            raise DeviceError("the board refused %s: %s" % (cmd.get("cmd"), msg.get("text")))
        return msg

    def _position(self, indexes, first):
        n = self.size * self.size
        cells = ["."] * n
        stone = self.spec.get("stone") or {}
        reversed_all = stone.get("reversed") is True
        odd = set(stone.get("points") or ())
        for i in indexes:
            flip = reversed_all or (i in odd and i not in self._used_odd)
            cells[i] = "W" if flip else "B"
        self._used_odd.update(i for i in indexes if i in odd)
        rows = ["".join(cells[r * self.size : (r + 1) * self.size]) for r in range(self.size)]
        return "/".join(rows)

    def clear(self):
        self._used_odd = set()
        self.twin.model("grid", position="/".join(["." * self.size] * self.size))

    def stones(self, step, indexes):
        self.twin.model("grid", position=self._position(indexes, step))

    def hold(self, point):
        from ingboard.core.classifier import point_index

        self.stones("pole test", [point_index(point, self.size)])

    def key(self, name, window_ms):
        # Held through the whole window (the app may take a while to start the probe: it
        # loads the probe's code first), released before the next key is asked for.
        self.player.send({"cmd": "probe", "what": "keys", "ms": window_ms})
        self.twin.model("key", key=name, hold_ms=window_ms + TWIN_KEY_MARGIN_MS)
        reply = self.request({}, "probe", max_ms=window_ms + 20000, send=False)
        self.twin.model("key", release=name)
        return reply

    def load(self, colour, grams, spot):
        position = dict(plan.BOWL_SPOTS).get(spot, 0.5)
        self.twin.model("bowl", colour=colour, grams=grams, position=position)
