"""The board's hardware around the twin's RP2040: loads the models of host_tools/twin/models/
with the pins of a board_config variant (default `pico`, the RP2040 module the twin emulates).

    attach(twin, variant="pico", position=None, cells=None)

Each model is a small module that knows one part's datasheet behaviour and nothing of go:
`hall_grid.mjs` (DRV5055 sensors behind the CD74HC4067 muxes, 74HC154 power decoders and the
ADC), `hx711.mjs` (the two load-cell ADCs), `keys.mjs`, `buzzer.mjs` (PWM tones recorded),
`ssd1306.mjs` (the two displays on I2C; frames as pictures). Each answers a command of the
twin (`twin.model(name, **args)`): "grid" {position}, "bowl" {colour, grams | plugged},
"key" {key, hold_ms}, "tones", "frames", "display".

`fill_bowls(twin)` puts a full set of 180 stones in each bowl (`FULL_SET_G`, the weights of
the simulated sets of bowl_model.py): a board at rest, as its players leave it.
"""

import os

from ingboard import board_config

import host_tools  # noqa: F401  (puts firmware/ on sys.path)

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")

# The load cells as `ingboard calibrate` would find them: raw code of the empty bowl and
# counts per gram (HX711 at x128 with a 5 kg cell, 1 mV/V at 3.3 V: ~420 counts/g).
CELLS = {"B": {"offset": 84213, "scale": 420.5}, "W": {"offset": -51277, "scale": 433.25}}


def attach(twin, variant="pico", position=None, cells=None, seed=1):
    """Load every model onto `twin` with `variant`'s pins; returns the variant dict."""
    cfg = board_config.variant(variant)
    grid = dict(cfg["grid"])
    opts = {"grid": grid, "seed": seed}
    if position is not None:
        opts["position"] = position
    twin.load_model(os.path.join(MODELS, "hall_grid.mjs"), **opts)
    twin.load_model(os.path.join(MODELS, "hx711.mjs"), bowls=cfg["bowls"], cells=cells or CELLS)
    twin.load_model(os.path.join(MODELS, "keys.mjs"), keys=cfg["keys"])
    twin.load_model(os.path.join(MODELS, "buzzer.mjs"), buzzer=cfg["buzzer"])
    twin.load_model(
        os.path.join(MODELS, "ssd1306.mjs"), i2c=list(cfg["i2c"]), displays=cfg["displays"]
    )
    return cfg


def full_set_grams(seed):
    """The weight of one simulated 180-stone set (bowl_model.BowlModel with this seed)."""
    from host_tools.bowl_model import BowlModel

    return round(BowlModel(seed).full_weight(), 3)


FULL_SET_SEEDS = {"B": 11, "W": 12}


def fill_bowls(twin, grams=None):
    """Both bowls full (180 stones each); returns {colour: grams}."""
    grams = grams or {c: full_set_grams(s) for c, s in FULL_SET_SEEDS.items()}
    for colour, g in grams.items():
        twin.model("bowl", colour=colour, grams=g)
    return grams


def bowl_calibration(cells=None):
    """The /bowls.json text `ingboard calibrate` would write for these load cells."""
    from ingboard import storage_paths

    cells = cells or CELLS
    return storage_paths.bowl_calibration_text(
        {c: v["offset"] for c, v in cells.items()}, {c: v["scale"] for c, v in cells.items()}
    )
