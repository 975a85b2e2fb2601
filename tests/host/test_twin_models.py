"""The device twin's hardware models (host_tools/twin/models/) under the firmware's own drivers
running on MicroPython's rp2 port in the emulated RP2040 (issue 17): the grid read through the
muxes and the ADC gives back the position, the HX711s the grams, the keys their presses, the
buzzer the tones asked for; the SSD1306 model shows what the controller's datasheet says for
the byte streams a driver sends."""

import base64
import json
import os
import subprocess

import pytest
from twin_support import require_images

from host_tools import ROOT
from host_tools.twin import deploy, frames, hardware
from host_tools.twin.process import Twin

DRIVERS = [
    "ingboard/__init__.py",
    "ingboard/board_config.py",
    "ingboard/drivers/__init__.py",
    "ingboard/drivers/grid.py",
    "ingboard/drivers/grid_native.py",
    "ingboard/drivers/hx711.py",
    "ingboard/drivers/hx711_native.py",
    "ingboard/drivers/keys.py",
    "ingboard/drivers/buzzer.py",
    "ingboard/sensing/__init__.py",
    "ingboard/sensing/classifier.py",
    "ingboard/sensing/classify_viper.py",
]


def _position(size=19):
    rows = [["."] * size for _ in range(size)]
    rows[0][0] = "B"  # A19, the first sensor of group 0 (bank 0)
    rows[3][3] = "W"  # D16
    rows[18][17] = "W"  # S1 (index 359: group 22, bank 1)
    rows[18][18] = "?"  # T1, the last sensor: a hand over it
    rows[9][9] = "B"  # K10, with a white neighbour: crosstalk stays far below a stone
    rows[9][10] = "W"
    return "/".join("".join(r) for r in rows)


@pytest.fixture(scope="module")
def twin():
    require_images("stock")
    with Twin("stock") as t:
        hardware.attach(t, variant="pico")
        deploy.put_files(t, deploy.compiled(DRIVERS))
        t.exec(
            "import time\n"
            "from ingboard import board_config\n"
            "from ingboard.sensing.classifier import Classifier, format_scan\n"
            "hw = board_config.build()\n"
            "clf = Classifier(19)\n"
        )
        yield t


def test_build_picks_the_pico_variant_on_the_rp2040(twin):
    assert twin.exec("print(hw['config']['name'])").strip() == "pico"


def test_the_grid_driver_reads_back_the_position_through_muxes_and_adc(twin):
    position = _position()
    twin.model("grid", position=position)
    out = twin.exec(
        "r = hw['grid'].scan()\nclf.classify(r)\n"
        "print(format_scan(clf.classes, 19))\nprint(r[0], r[3 * 19 + 3], r[19 * 5])"
    ).split()
    assert out[0] == position
    black, white, empty = (int(v) for v in out[1:])
    # DRV5055A2 at 3.3 V: a stone is 14.8 mT, 0.44 V (8818 counts, physical.py) off VCC/2
    # (32768), +/- the spread of offsets and gains.
    assert 40000 < black < 45000 and 20500 < white < 25500 and 31000 < empty < 34500
    state = twin.model("grid")
    assert state["reads"] >= 361
    # The driver waits out the sensors' power-on time and never reads a disabled bank; both
    # banks' groups at one address are powered together (issue 20: 16 waits a scan, not 23).
    assert state["early_reads"] == 0
    assert state["double_powered"] > 0
    assert state["floating_reads"] == 0


def test_the_grid_drivers_native_loops_read_what_the_pure_loop_reads(twin):
    # Without ADC noise the model answers the same for the same pins: the four loops - the
    # whole scan on the RP2040's registers (grid_native.scan_rp2040, its power-on waits on the
    # timer), each group's channels on the registers (read_group_rp2040, issue 20), native
    # through machine.Pin and machine.ADC, and pure - must agree, and the register loops
    # allocate nothing; the whole scan too waits out every group's power-on time and never
    # reads a disabled bank.
    twin.model("grid", position=_position(), noise_lsb=0)
    try:
        before = twin.model("grid")
        out = twin.exec(
            "import gc\ng = hw['grid']\nwhole = g.whole\ndirect = g.direct\nnative = g.native\n"
            "w = bytes(g.scan())\ng.whole = None\n"
            "a = bytes(g.scan())\ng.direct = None\nb = bytes(g.scan())\n"
            "g.native = None\nc = bytes(g.scan())\ng.native = native\ng.direct = direct\n"
            "g.whole = whole\n"
            "g.scan()\ngc.collect()\ngc.disable()\nm = gc.mem_alloc()\ng.scan()\n"
            "m = gc.mem_alloc() - m\ngc.enable()\n"
            "print(whole is not None, direct is not None, native is not None, w == a, a == b,"
            " b == c, m)"
        ).split()
        after = twin.model("grid")
    finally:
        twin.model("grid", noise_lsb=2)
    # Every loop on the rp2 port, the same readings from all four, no allocation.
    assert out == ["True", "True", "True", "True", "True", "True", "0"]
    assert after["reads"] - before["reads"] >= 5 * 361
    for name in ("early_reads", "floating_reads"):
        assert after[name] == before[name], name


def test_the_whole_scan_hands_each_addresss_points_to_work_as_they_are_read(twin):
    # GridScanner.scan(work=...): on the RP2040's whole native scan work(a) runs in the next
    # address's power-on wait, once address a's sensors are read - the points
    # order[ends[a - 1]:ends[a]] - in address order, the last after the scan; the app hands
    # it Classifier.part, which gives the classes classify() gives on the same readings.
    twin.model("grid", position=_position(), noise_lsb=0)
    try:
        out = twin.exec(
            "from ingboard.sensing.classifier import Classifier\n"
            "g = hw['grid']\nref = list(g.scan())\nbuf = g.readings\ncalls = []\n"
            "def work(a):\n"
            "    first = g.ends[a - 1] if a else 0\n"
            "    calls.append((a, all(buf[p] == ref[p] for p in g.order[first:g.ends[a]])))\n"
            "g.scan(None, work)\n"
            "whole = Classifier(19)\nparts = Classifier(19)\n"
            "whole.classify(g.scan())\n"
            "parts.begin(g.readings, g.order, g.ends)\ng.scan(None, parts.part)\n"
            "n = parts.end()\n"
            "print(g.whole is not None, parts.native is not None, sorted(g.order) == "
            "list(range(361)), [a for a, _ in calls] == list(range(16)), "
            "all(ok for _, ok in calls), whole.classes == parts.classes, "
            "whole.baseline == parts.baseline, n, whole.scans == parts.scans)"
        ).split()
    finally:
        twin.model("grid", noise_lsb=2)
    assert out == ["True"] * 7 + ["0", "True"], out


def test_a_reading_before_the_sensors_power_on_time_is_wrong():
    # The model's half of the contract above: a driver that does not wait reads 0 V.
    require_images("stock")
    with Twin("stock") as t:
        hardware.attach(t, variant="pico", position=_position())
        deploy.put_files(t, deploy.compiled(DRIVERS))
        out = t.exec(
            "from ingboard import board_config\n"
            "from ingboard.drivers.grid import GridScanner\n"
            "from machine import Pin, ADC\n"
            "g = board_config.variant('pico')['grid']\n"
            "p = lambda n, v: Pin(n, Pin.OUT, value=v)\n"
            "s = GridScanner([p(n, 0) for n in g['channel_select']],"
            " [p(n, 0) for n in g['group_select']], [p(n, 1) for n in g['bank_enable']],"
            " [ADC(Pin(n)) for n in g['adc']], power_on_us=0)\n"
            "r = s.scan()\nprint(r[0], r[1])"
        ).split()
        assert all(int(v) < 256 for v in out), out  # 0 V, give or take the ADC's noise
        assert t.model("grid")["early_reads"] >= 2


def test_hx711_gives_the_grams_on_the_bowl(twin):
    cells = hardware.CELLS
    twin.model("bowl", colour="B", grams=1171.9)
    twin.model("bowl", colour="W", grams=6.6)
    twin.run_ms(150)  # a conversion is the load at its time: let one be made with the new load
    out = twin.exec(
        "for c, v in %s.items():\n"
        " hx = hw['hx711'][c]; hx.offset = v['offset']; hx.scale = v['scale']\n"
        "got = {}\n"
        "t0 = time.ticks_ms()\n"
        "while len(got) < 2 and time.ticks_diff(time.ticks_ms(), t0) < 1000:\n"
        " for c in 'BW':\n"
        "  g = hw['hx711'][c].poll(time.ticks_ms())\n"
        "  if g is not None: got[c] = g\n"
        " time.sleep_ms(10)\n"
        "print(got['B'], got['W'])" % json.dumps(cells)
    ).split()
    b, w = (float(v) for v in out)
    assert abs(b - 1171.9) < 0.05 and abs(w - 6.6) < 0.05
    state = twin.model("bowl", colour="B")
    assert state["reads"] >= 1 and state["bad_reads"] == 0 and not state["powered_down"]


def test_the_hx711_register_shift_reads_what_the_pin_loop_reads(twin):
    # Issue 20: the RP2040's register-level shift (hx711_native.shift_rp2040) gives the same
    # grams as the loop through machine.Pin, each read whole (25 pulses, none cut short by a
    # power-down). The drivers here are .mpy on littlefs, where the build leaves the shift out
    # (its machine code would be heap); it is put in by hand.
    cells = hardware.CELLS
    twin.model("bowl", colour="B", grams=1171.9)
    twin.run_ms(150)
    before = twin.model("bowl", colour="B")
    out = twin.exec(
        "v = %s['B']\nhx = hw['hx711']['B']; hx.offset = v['offset']; hx.scale = v['scale']\n"
        "built = hx.native\n"
        "from array import array\nfrom ingboard.drivers import hx711_native\n"
        "pins = board_config.variant('pico')['bowls']['B']\n"
        "native = (hx711_native.shift_rp2040, array('I', [1 << pins['sck'], 1 << pins['dout']]))\n"
        "hx.native = native\n"
        "def one():\n"
        " t0 = time.ticks_ms()\n"
        " while not hx.ready() and time.ticks_diff(time.ticks_ms(), t0) < 1000:\n"
        "  time.sleep_ms(2)\n"
        " return (hx.read_code() - hx.offset) / hx.scale\n"
        "a = one()\nhx.native = None\nb = one()\nhx.native = native\nc = one()\n"
        "print(built is None, a, b, c)" % json.dumps(cells)
    ).split()
    after = twin.model("bowl", colour="B")
    assert out[0] == "True"
    got = [float(v) for v in out[1:]]
    assert all(abs(g - 1171.9) < 0.05 for g in got), got
    assert after["reads"] - before["reads"] == 3
    assert after["bad_reads"] == before["bad_reads"] and not after["powered_down"]


def test_an_unplugged_hx711_is_a_sensor_fault(twin):
    twin.model("bowl", colour="W", plugged=False)
    out = twin.exec(
        "from ingboard.drivers.hx711 import SensorFault\n"
        "hx = hw['hx711']['W']\nhx.last_ok_ms = None\nres = 'none'\n"
        "t0 = time.ticks_ms()\n"
        "while time.ticks_diff(time.ticks_ms(), t0) < 800:\n"
        " try:\n  hx.poll(time.ticks_ms())\n except SensorFault as e:\n  res = str(e); break\n"
        " time.sleep_ms(20)\n"
        "print(res)"
    )
    twin.model("bowl", colour="W", plugged=True)
    assert "no conversion" in out


def test_keys_are_pressed_through_the_pull_ups(twin):
    twin.model("key", key="W", hold_ms=60)
    out = twin.exec(
        "k = hw['keys']\nseen = []\nt0 = time.ticks_ms()\n"
        "while time.ticks_diff(time.ticks_ms(), t0) < 150:\n"
        " if k.poll(time.ticks_ms()):\n"
        "  seen += k.taken()\n"
        " time.sleep_ms(5)\n"
        "print(seen, [p() for p in k._pins])"
    )
    assert out.strip() == "[1] [1, 1, 1, 1]"  # W pressed once; all released, pulled up
    assert twin.model("key")["W"]["presses"] == 1


def test_the_buzzer_plays_the_tones_asked_for(twin):
    twin.model("tones")  # forget earlier ones
    twin.exec(
        "b = hw['buzzer']\nb.play((2000, 30, 0, 20, 1000, 40), time.ticks_ms())\n"
        "while b.update(time.ticks_ms()):\n time.sleep_ms(2)"
    )
    tones = twin.model("tones")
    assert [t["hz"] for t in tones] == [2000, 0, 1000, 0]
    assert tones[0]["duty"] == 0.5
    gaps = [(b["t_us"] - a["t_us"]) / 1000 for a, b in zip(tones, tones[1:])]
    for got, want in zip(gaps, (30, 20, 40)):
        assert want - 2 < got < want + 6  # ticks_ms steps; the driver moves on at its update


# -- the SSD1306 model on its own (node), fed the byte streams drivers send -----------------

NODE_SCRIPT = """
import { SSD1306 } from %s;
const steps = JSON.parse(process.argv[1]);
const d = new SSD1306("B");
for (const t of steps) {
  d.start(false);
  for (const b of t) d.write(b);
  d.stop();
}
process.stdout.write(JSON.stringify({frames: d.frames, unknown: d.unknown,
  bits: Buffer.from(d.picture()).toString("base64")}));
"""


def _display(transactions):
    model = os.path.join(ROOT, "host_tools", "twin", "models", "ssd1306.mjs")
    script = NODE_SCRIPT % json.dumps("file://" + model)
    proc = subprocess.run(
        ["node", "--input-type=module", "-e", script, json.dumps(transactions)],
        capture_output=True,
        text=True,
        check=True,
    )
    out = json.loads(proc.stdout)
    return out, base64.b64decode(out["bits"])


# micropython-lib's ssd1306 init for 128x64 with the internal charge pump, one command per
# transaction (control byte 0x80, Co=1 D/C#=0), then show(): window, then one data transaction.
INIT = [0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 63, 0xC8, 0xD3, 0x00, 0xDA, 0x12, 0xD5, 0x80]
INIT += [0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0xAD, 0x30, 0x8D, 0x14, 0xAF]


def _face():
    from ingrules.board import BLACK

    from host_tools import clock_png
    from host_tools.clock_scenes import SCENES

    clock, now = dict(SCENES)["ing-penalties"]()
    return clock_png.face_bytes(clock, BLACK, now)


def test_ssd1306_shows_a_clock_face_upright_horizontal_mode(tmp_path):
    vlsb = _face()
    show = [[0x80, c] for c in (0x21, 0, 127, 0x22, 0, 7)]
    out, bits = _display([[0x80, c] for c in INIT] + show + [[0x40] + list(vlsb)])
    assert out["unknown"] == 0 and out["frames"] >= 1
    assert bits == frames.picture_from_vlsb(vlsb)
    path = tmp_path / "face.png"  # the picture as a player sees it
    frames.image(bits).save(path)
    assert path.stat().st_size > 100


def test_ssd1306_page_addressing_and_a_command_stream_give_the_same_picture():
    vlsb = _face()
    cmds = [0x00] + INIT + [0x20, 0x02]  # Co=0: the whole transaction is commands
    steps = [cmds]
    for page in range(8):
        # page start, column 0 (low, high nibble), then that page's 128 bytes
        steps.append([0x00, 0xB0 | page, 0x00, 0x10])
        steps.append([0x40] + list(vlsb[page * 128 : (page + 1) * 128]))
    _out, bits = _display(steps)
    assert bits == frames.picture_from_vlsb(vlsb)


def test_ssd1306_off_inverse_and_orientation():
    vlsb = _face()
    data = [[0x40] + list(vlsb)]
    win = [[0x80, c] for c in (0x21, 0, 127, 0x22, 0, 7)]
    _o, off = _display([[0x80, c] for c in INIT[:-1]] + win + data)  # never switched on
    assert off == bytes(1024)
    _o, inv = _display([[0x80, c] for c in INIT + [0xA7]] + win + data)
    upright = frames.picture_from_vlsb(vlsb)
    assert inv == bytes(b ^ 0xFF for b in upright)
    # Without the segment remap and COM reversal the module shows the picture upside down.
    plain = [c for c in INIT if c not in (0xA1, 0xC8)]
    _o, rotated = _display([[0x80, c] for c in plain] + win + data)
    img = frames.image(rotated, scale=1).rotate(180)
    assert img.tobytes() == frames.image(upright, scale=1).tobytes()
