"""The board's hardware around the twin's RP2040: loads the models of host_tools/twin/models/
with the pins of a board_config variant (default `pico`, the RP2040 module the twin emulates).

    attach(twin, variant="pico", position=None, cells=None, faults=None)
    set_faults(twin, faults)          # rewire a running twin

Each model is a small module that knows one part's datasheet behaviour and nothing of go:
`hall_grid.mjs` (DRV5055 sensors behind the CD74HC4067 muxes, 74HC154 power decoders and the
ADC, with physical.py's figures), `hx711.mjs` (the two load-cell ADCs), `keys.mjs`,
`buzzer.mjs` (PWM tones recorded), `ssd1306.mjs` (the two displays on I2C; frames as
pictures). Each answers a command of the twin (`twin.model(name, **args)`): "grid" {position,
faults}, "bowl" {colour, grams, position | plugged, faults}, "key" {key, hold_ms, release,
faults}, "tones", "frames", "display" {faults}. `faults` is host_tools/twin/faults.py's
parse() of wiring faults (swapped lines, dead groups, reversed sensors, load cells...).

`fill_bowls(twin)` puts a full set of 180 stones in each bowl (the weights of the simulated
sets of bowl_model.py): a board at rest, as its players leave it.
"""

import os

from ingboard import board_config, physical

import host_tools  # noqa: F401  (puts firmware/ on sys.path)

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")

# The load cells as `ingboard calibrate` would find them: raw code of the empty bowl and
# counts per gram (physical.py: two 2 kg, 1 mV/V cells at 3.3 V into an HX711 at x128, 537
# counts/g; these two platforms' cells 2 % under and 1 % over).
CELLS = {
    "B": {"offset": 84213, "scale": round(physical.HX711_COUNTS_PER_G * 0.98, 2)},
    "W": {"offset": -51277, "scale": round(physical.HX711_COUNTS_PER_G * 1.01, 2)},
}


VSYS_MV = 5000


def physics():
    """physical.py's figures, for the models (plain numbers by name)."""
    return {
        k: getattr(physical, k)
        for k in dir(physical)
        if k.isupper() and isinstance(getattr(physical, k), (int, tuple))
    }


def attach(twin, variant="pico", position=None, cells=None, seed=1, faults=None):
    """Load every model onto `twin` with `variant`'s pins; returns the variant dict. `faults`:
    host_tools/twin/faults.py's parse() of wiring faults (None: the board as designed)."""
    cfg = board_config.variant(variant)
    faults = faults or {}
    grid = dict(cfg["grid"])
    opts = {"grid": grid, "seed": seed, "physics": physics(), "faults": faults.get("grid", {})}
    if cfg.get("battery_adc") is not None:
        # The module's VSYS/3 divider on USB power (5.0 V), as the 12-bit ADC reads it.
        opts["otherChannels"] = {cfg["battery_adc"] - 26: round(VSYS_MV / 3 / 3300 * 4096)}
    if position is not None:
        opts["position"] = position
    twin.load_model(os.path.join(MODELS, "hall_grid.mjs"), **opts)
    twin.load_model(
        os.path.join(MODELS, "hx711.mjs"),
        bowls=cfg["bowls"],
        cells=cells or CELLS,
        faults=faults.get("bowls", {}),
    )
    twin.load_model(os.path.join(MODELS, "keys.mjs"), keys=cfg["keys"], faults=faults.get("keys"))
    twin.load_model(os.path.join(MODELS, "buzzer.mjs"), buzzer=cfg["buzzer"])
    twin.load_model(
        os.path.join(MODELS, "ssd1306.mjs"),
        i2c=list(cfg["i2c"]),
        displays=cfg["displays"],
        faults=faults.get("displays", {}),
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


def set_faults(twin, faults):
    """Rewire a running twin's models (faults.parse(); {} or None: as designed). The displays
    come back as fresh, uninitialised controllers."""
    faults = faults or {}
    twin.model("grid", faults=faults.get("grid", {}))
    for colour in ("B", "W"):
        twin.model("bowl", colour=colour, faults=faults.get("bowls", {}).get(colour, {}))
    twin.model("key", faults=faults.get("keys", {}))
    twin.model("display", faults=faults.get("displays", {}))


def bowl_calibration(cells=None):
    """The /bowls.json text `ingboard calibrate` would write for these load cells."""
    from ingboard import storage_paths

    cells = cells or CELLS
    return storage_paths.bowl_calibration_text(
        {c: v["offset"] for c, v in cells.items()}, {c: v["scale"] for c, v in cells.items()}
    )
