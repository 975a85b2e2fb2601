"""A board's bring-up readings computed in Python from a wiring-fault spec (host_tools/twin/
faults.py's parse()), with the twin's hardware models' rules (host_tools/twin/models/): the
firmware's scan (drivers/grid.py: per group address, the banks that have a group there
enabled, the select lines as commanded), muxes, 74HC154s and MOSFETs, DRV5055 sensors with
physical.py's figures. It lets the diagnosis be tried on hundreds of generated faults and
combinations in a second; the device twin tests (test_twin_bringup.py) run the real firmware
on the same faults."""

import random

from ingboard import board_config as bc
from ingboard import physical as ph

from host_tools.bringup import plan

CH = bc.CHANNELS_PER_GROUP
GPB = bc.GROUPS_PER_BANK
LINES = ("S0", "S1", "S2", "S3", "A0", "A1", "A2", "A3", "EN0", "EN1")


class Board:
    def __init__(self, spec, variant="pico", seed=1):
        self.cfg = bc.variant(variant)
        self.spec = spec
        self.size = self.cfg["grid"]["size"]
        self.n = self.size * self.size
        self.groups = bc.grid_groups(self.size)
        self.rng = random.Random(seed)
        rnd = random.Random(seed + 1)
        self.quiescent = [
            ph.EMPTY_COUNTS + rnd.uniform(-1, 1) * ph.SENSOR_OFFSET_TOL_MV * 65536 / ph.SUPPLY_MV
            for _ in range(self.n)
        ]
        self.gain = [1 + rnd.uniform(-1, 1) * ph.SENSOR_GAIN_TOL_PCT / 100 for _ in range(self.n)]
        grid = spec.get("grid", {})
        g = self.cfg["grid"]
        self.gpio = {}
        for k in range(4):
            self.gpio["S%d" % k] = g["channel_select"][k]
            self.gpio["A%d" % k] = g["group_select"][k]
        for k in range(2):
            self.gpio["EN%d" % k] = g["bank_enable"][k]
        self.by_gpio = {v: k for k, v in self.gpio.items()}
        self.wires = {name: grid.get("wires", {}).get(name, self.gpio[name]) for name in LINES}
        self.slot_sensor = [-2] * (self.groups * CH)
        for i in range(self.n):
            self.slot_sensor[i] = i
        for key in grid.get("slots", {}):
            if self.slot_sensor[int(key)] == int(key):
                self.slot_sensor[int(key)] = -1
        for key, slot in grid.get("slots", {}).items():
            self.slot_sensor[slot] = int(key)
        self.mosfet = {int(k): v for k, v in grid.get("mosfet", {}).items()}
        self.sensors = {int(k): v for k, v in grid.get("sensors", {}).items()}
        self.share = {int(k): v for k, v in grid.get("gains", {}).items()}
        self.adc_swap = grid.get("adc") is not None and list(grid["adc"]) != [
            p - 26 for p in g["adc"]
        ]
        self.stones = [0] * self.n

    # -- the grid ----------------------------------------------------------------------
    def field(self, i):
        n = self.size
        r, c = divmod(i, n)
        fault = self.sensors.get(i)
        span = ph.STONE_SPAN_COUNTS
        if fault == "axis":
            f = 0.0
            if c > 0:
                f += self.stones[i - 1] * span * 0.012
            if c < n - 1:
                f -= self.stones[i + 1] * span * 0.012
            return f
        f = self.stones[i] * span
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                if (dr or dc) and 0 <= rr < n and 0 <= cc < n:
                    bp = (
                        ph.CROSSTALK_DIAGONAL_BP
                        if dr and dc
                        else ph.CROSSTALK_NEXT_LINE_BP
                        if dr
                        else ph.CROSSTALK_ALONG_LINE_BP
                    )
                    f += self.stones[rr * n + cc] * span * bp / 10000
        f *= self.share.get(i, 1)
        return -f if fault == "reversed" else f

    def _level(self, name, commanded):
        w = self.wires[name]
        if w == "low":
            return 0
        if w == "high":
            return 1
        if w == "open":
            return self.rng.randint(0, 1)
        return commanded[self.by_gpio[w]]

    def _floating(self):
        return self.rng.randrange(65536)

    def _sensor(self, sensor, group, settled=True):
        if sensor == -2:
            return 0
        if sensor == -1:
            return self._floating()
        own = sensor // CH
        if self.mosfet.get(own) == "open" or self.sensors.get(sensor) == "dead":
            return 0
        if self.mosfet.get(own) != "short":
            if own != group or not settled:
                return 0
        v = self.quiescent[sensor] + self.gain[sensor] * self.field(sensor)
        lo = ph.SENSOR_RAIL_MARGIN_MV * 65536 / ph.SUPPLY_MV
        v = min(max(v, lo), 65535 - lo)
        return int(v + self.rng.uniform(-2, 2))

    def read(self, bank, commanded, settled=True, early_powered=False):
        """One ADC read on `bank`'s input with the lines as commanded {line: level}."""
        pb = 1 - bank if self.adc_swap else bank
        if pb >= bc.grid_banks(self.size):
            return self._floating()
        if self._level("EN%d" % pb, commanded) != 0:
            return self._floating()
        a = sum(self._level("A%d" % b, commanded) << b for b in range(4))
        c = sum(self._level("S%d" % b, commanded) << b for b in range(4))
        pg = pb * GPB + a
        if pg >= self.groups:
            return 0
        sensor = self.slot_sensor[pg * CH + c]
        return self._sensor(sensor, pg, settled or early_powered)

    def _commanded(self, address, channel, enabled_banks):
        out = {}
        for b in range(4):
            out["A%d" % b] = (address >> b) & 1
            out["S%d" % b] = (channel >> b) & 1
        for b in range(2):
            out["EN%d" % b] = 0 if b in enabled_banks else 1
        return out

    def scan(self):
        """drivers/probe.py's scan: each input on its own - its select lines set, every bank
        enabled, the power-on time waited - then read."""
        out = [0] * self.n
        banks = list(range(bc.grid_banks(self.size)))
        for j in range(self.n):
            g, c = divmod(j, CH)
            bank, a = divmod(g, GPB)
            out[j] = self.read(bank, self._commanded(a, c, banks))
        return out

    def power(self):
        out = []
        for g in range(self.groups):
            bank, a = divmod(g, GPB)
            off_cmd = self._commanded(a, 0, [])
            off = self.read(bank, off_cmd)
            pb = 1 - bank if self.adc_swap else bank
            already = self._level("EN%d" % pb, off_cmd) == 0  # enabled all along
            on_cmd = self._commanded(a, 0, [bank])
            early = self.read(bank, on_cmd, settled=False, early_powered=already)
            settled = self.read(bank, on_cmd)
            others = [b for b in range(bc.grid_banks(self.size)) if b != bank]
            crossed = self.read(bank, self._commanded(a, 0, others))
            out.append([off, early, settled, crossed])
        return out

    # -- the walk ----------------------------------------------------------------------
    def grid_readings(self):
        stone = self.spec.get("stone", {})
        self.stones = [0] * self.n
        scans = [self.scan() for _ in range(4)]
        empty = [sum(s[j] for s in scans) // 4 for j in range(self.n)]
        readings = {
            "version": 1,
            "variant": self.cfg["name"],
            "size": self.size,
            "empty": empty,
            "empty_scans": [self.scan() for _ in range(3)],
            "power": self.power(),
        }
        steps = []
        used = set()
        odd = set(stone.get("points", ()))
        for name, indexes in plan.pattern_steps(self.size):
            self.stones = [0] * self.n
            for i in indexes:
                flip = stone.get("reversed") is True or (i in odd and i not in used)
                self.stones[i] = -1 if flip else 1
            used.update(i for i in indexes if i in odd)
            steps.append({"name": name, "points": indexes, "values": self.scan()})
        readings["patterns"] = steps
        self.stones = [0] * self.n
        return readings

    def key_readings(self):
        keys = self.cfg["keys"]
        wires = self.spec.get("keys", {}).get("wires", {})
        low_always = {keys[k] for k, w in wires.items() if w == "short"}
        asked = {}
        for name in plan.KEYS:
            pressed = set(low_always)
            w = wires.get(name, keys[name])
            if isinstance(w, int):
                pressed.add(w)
            down = [k for k in plan.KEYS if keys[k] in pressed]
            idle = [k for k in plan.KEYS if keys[k] in low_always]
            asked[name] = {"idle": idle, "down": down}
        return {"asked": asked}

    def bowl_readings(self, grams=500.0):
        offsets = {"B": 84213, "W": -51277}
        scales = {"B": ph.HX711_COUNTS_PER_G * 0.98, "W": ph.HX711_COUNTS_PER_G * 1.01}
        faults = self.spec.get("bowls", {})

        def code(colour, g, position):
            f = faults.get(colour, {})
            cells = f.get("cells", [1, 1])
            share = (1 - position) * cells[0] + position * cells[1]
            if f.get("reversed"):
                share = -share
            return int(offsets[colour] + g * scales[colour] * share + self.rng.uniform(-3, 3))

        out = {
            "grams": grams,
            "zero": {c: code(c, 0, 0.5) for c in "BW"},
            "loads": {},
            "errors": {},
        }
        for colour in "BW":
            if faults.get(colour, {}).get("unplugged"):
                out["errors"][colour] = "its HX711 gives no conversion (DOUT stays high)"
        if out["errors"]:
            out["zero"] = None
            return out
        for colour in "BW":
            out["loads"][colour] = {}
            for spot, position in plan.BOWL_SPOTS:
                out["loads"][colour][spot] = {
                    c: code(c, grams if c == colour else 0, position) for c in "BW"
                }
        return out

    def i2c_readings(self):
        faults = self.spec.get("displays", {})
        buses = [{"found": [], "status": {}} for _ in self.cfg["i2c"]]
        for colour, d in self.cfg["displays"].items():
            f = faults.get(colour, {})
            if f.get("absent"):
                continue
            addr = f.get("addr", d["addr"])
            status = 0x08 if f.get("chip") == "sh1106" else 0x06
            bus = buses[d["bus"]]
            bus["found"] = sorted(set(bus["found"]) | {addr})
            bus["status"][str(addr)] = status | 0x00
        return buses

    def readings(self, parts=("grid", "keys", "bowls", "displays")):
        out = {"version": 1, "variant": self.cfg["name"]}
        if "grid" in parts:
            out.update(self.grid_readings())
        if "keys" in parts:
            out["keys"] = self.key_readings()
        if "bowls" in parts:
            out["bowls"] = self.bowl_readings()
        if "displays" in parts:
            out["i2c"] = self.i2c_readings()
            out["supply_mv"] = 5000
        return out
