"""Where the bring-up walk runs: a real board (a person does what it asks) or the device twin
(the walk does it itself, on the twin's hardware models, wired wrong if asked).

The reads go through the board's REPL with the game app stopped (the firmware's
drivers/probe.py: raw scans, the groups' power, raw HX711 codes, the I2C buses, the keys, the
supply), so a badly wired board that would keep the app busy still answers, and the app
raises no alert while half the board is covered with stones.

Both benches offer the same methods to walk.py:
- `probe(what, **options)` -> the probe's result (a dict; DeviceError when it fails);
- `clear()`, `stones(step, indexes)`: the board empty / a stone on each of those points;
- `hold(point)`: the next stone held over a point (the pole tester);
- `key(name, window_ms)` -> the keys probe's result while that key is pressed;
- `load(colour, grams, spot)`: the known weight on a platform (grams 0: nothing);
- `say(text)`: a line for the person (the twin logs it); `close()`.
"""

import json
import os
import tempfile

from host_tools import FIRMWARE
from host_tools.bringup import plan
from host_tools.device import DeviceError

HUMAN_KEY_WINDOW_MS = 8000
TWIN_KEY_WINDOW_MS = 200


# The probes' code: sent with each probe as source (not installed on the board: no game needs
# it), without its docstrings, which the board would only have to read past.
PROBE = os.path.join(FIRMWARE, "ingboard", "drivers", "probe.py")


def probe_source(path=PROBE):
    """The probe module's source without docstrings (the REPL compiles what it is sent)."""
    import ast

    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            body.pop(0)
            if not body:
                body.append(ast.Pass())
    return ast.unparse(tree) + "\n"


def probe_code(what, options):
    """The REPL script of one probe: the probe module's code, then its main() with the board's
    wiring (the board's board_config.py)."""
    args = ", ".join("%s=%r" % (k, v) for k, v in sorted(options.items()))
    return probe_source() + ("from ingboard import board_config\nmain(board_config, %r%s)\n") % (
        what,
        ", " + args if args else "",
    )


def parse_probe(what, out):
    lines = [ln for ln in out.splitlines() if ln.strip()]
    try:
        return json.loads(lines[-1])
    except (IndexError, ValueError):
        raise DeviceError(
            "the board's %s probe printed no result: %r" % (what, out[-200:])
        ) from None


class BoardBench:
    """A real board over USB: every physical step is a prompt; `answers` (a list of lines, or
    None for the terminal) answers them in order - Enter (an empty line) goes on, `q` stops."""

    key_window_ms = HUMAN_KEY_WINDOW_MS

    def __init__(self, dev, size, variant, answers=None, out=print):
        self.dev = dev
        self.size = size
        self.variant = variant
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

    def probe(self, what, **options):
        options.setdefault("variant", self.variant)
        return parse_probe(what, self.dev.exec(probe_code(what, options)))

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
        self.out("Press key %s once, within %d s." % (name, window_ms // 1000))
        return self.probe("keys", ms=window_ms)

    def load(self, colour, grams, spot):
        if grams:
            self.ask(
                "Put the %g g weight on %s's platform, at its %s end." % (grams, colour, spot)
            )
        else:
            self.ask("Take the weight off %s's platform." % colour)

    def close(self):
        try:
            self.dev.start_app()  # the game app again, as the board is used
        except DeviceError:
            pass
        self.dev.close()


class TwinBench:
    """The device twin running the real firmware (ROMFS image, the REPL, no app), its hardware
    models wired as `faults` (host_tools/twin/faults.py texts) say; it does each step itself."""

    key_window_ms = TWIN_KEY_WINDOW_MS

    def __init__(self, faults=(), variant="pico", log=None):
        self.variant = variant
        self.log = log or (lambda text: None)
        self.twin = None
        self._tmp = None
        self.texts = list(faults)

    def start(self):
        from host_tools import FIRMWARE
        from host_tools.commands import flash
        from host_tools.twin import faults, hardware
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
        self.clear()
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

    def probe(self, what, **options):
        options.setdefault("variant", self.variant)
        return parse_probe(what, self.twin.exec(probe_code(what, options), max_ms=30000))

    def _position(self, indexes):
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
        self.twin.model("grid", position=self._position(indexes))

    def hold(self, point):
        from ingboard.sensing.classifier import point_index

        self.stones("pole test", [point_index(point, self.size)])

    def key(self, name, window_ms):
        # Pressed before the probe starts and held until it has answered.
        self.twin.model("key", key=name, hold_ms=600000)
        try:
            return self.probe("keys", ms=window_ms)
        finally:
            self.twin.model("key", release=name)

    def load(self, colour, grams, spot):
        position = dict(plan.BOWL_SPOTS).get(spot, 0.5)
        self.twin.model("bowl", colour=colour, grams=grams, position=position)
