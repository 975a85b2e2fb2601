"""Entry on the device: build the drivers from board_config.py, recover or start a game, run.

The REPL stays reachable for mpremote (flash, pull) because the app's host link only reads
complete JSON lines; Ctrl-C stops the app.

With network settings on flash (`ingboard setup-network`: /network.json) and Peter Hinch's
`mqtt_as` installed (a dependency in package.json), the club relay link runs beside the app
in the same asyncio loop: `mqtt_as` joins the Wi-Fi and the broker and reconnects by itself,
the app only hands moves to RelayLink (relay_feed.py), which never waits for the network.
Without either the board plays offline, as before.
"""

import asyncio
import gc
import os
import sys
import time

from ingboard import gc_policy, storage_paths
from ingboard.drivers.usb_serial import UsbSerial
from ingboard.sensing.classifier import Classifier


def build():
    from ingboard import board_config  # dropped after (main): its tables are used only here

    hw = board_config.build()
    # The variant's table is used only here: not kept in hw for the game (~0.7 KB of the heap).
    cfg = hw.pop("config")
    size = cfg["grid"]["size"]
    hw["classifier"] = Classifier(size)
    try:
        with open(storage_paths.CALIBRATION, "rb") as f:
            hw["classifier"].load_calibration(f.read())
    except (OSError, ValueError):
        pass  # uncalibrated: the default levels; `ingboard calibrate` writes the file
    gc_policy.drop("ingboard.sensing.calibration")  # the file's reading: used only here
    try:
        with open(storage_paths.BOWL_CALIBRATION) as f:
            bowls = storage_paths.parse_bowl_calibration(f.read())
        for colour, (offset, scale) in bowls.items():
            hw["hx711"][colour].offset = offset
            hw["hx711"][colour].scale = scale
    except (OSError, ValueError):
        pass
    from ingboard.drivers import display  # dropped after: used only to build the displays

    hw["displays"] = display.build(hw["i2c"], cfg["displays"])
    gc_policy.drop("ingboard.drivers.display")
    hw["link"] = UsbSerial()
    return hw


async def _sleep_ms(ms):
    await asyncio.sleep_ms(ms)


async def run(app, transport):
    if transport is not None:
        # The link has one time base: the feed's (ms since boot).
        asyncio.create_task(transport.run_mqtt_as(app.relay.now, _sleep_ms))
    await app.run()


def load_code():
    # The code the app keeps (on the stock image it is heap; issue 17). The relay feed's only
    # where network settings are on flash: a board without them plays offline and keeps none
    # of the feed's code (relay_feed None; main()).
    from ingboard.app.app import App
    from ingboard.records.store import RecordsStore

    try:
        os.stat(storage_paths.NETWORK)
    except OSError:
        return None, App, RecordsStore
    from ingboard.link import relay_feed

    return relay_feed, App, RecordsStore


def _load_beside(size, loaded):
    # The code loaded while `size` bytes are held (let go as this returns); None when it did
    # not fit beside them (more code, a smaller heap): what it loaded is forgotten (`loaded`:
    # the modules before), to be loaded again beside the next smaller reserve.
    try:
        reserve = bytearray(size)
        code = load_code()
    except MemoryError:
        for name in list(sys.modules):
            if name not in loaded:
                gc_policy.drop(name)
        return None
    del reserve
    return code


def load_app():
    """The app's code, loaded as the device loads it (after build()): the tracker first, the
    rest around a reserve (gc_policy.py, "Loading the code"). Returns (relay_feed, App,
    RecordsStore), relay_feed None without network settings; the bench starts the app through
    it too."""
    # The tracker's code before the reserve: the largest module, it needs blocks of over 1 KB
    # that the holes between the other modules' code may not have (the twin's stock image
    # then raised MemoryError at it with 20 KB free).
    from ingboard.tracking import tracker  # noqa: F401

    loaded = list(sys.modules)
    for size in gc_policy.LOAD_RESERVES:
        code = _load_beside(size, loaded)
        if code is not None:
            return code
    return load_code()  # without a reserve, into whatever room there is


def main():
    # The drivers' buffers first, the app's code after, around a reserve (gc_policy.py,
    # "Loading the code"): the heap the game needs stays in one piece.
    hw = build()
    gc_policy.drop("ingboard.board_config")  # the variants' tables: used once, by build()
    relay_feed, App, RecordsStore = load_app()
    hw["relay"], transport = None, None
    if relay_feed is not None:
        hw["relay"], transport = relay_feed.from_settings(
            storage_paths.NETWORK, storage_paths.RELAY_JOURNAL, time.ticks_ms, time.ticks_diff
        )
    if hw["relay"] is None:
        # A board playing offline keeps none of the feed's code (gc_policy.drop).
        relay_feed = None
        gc_policy.drop("ingboard.link.relay_feed")
    # asyncio.sleep_ms itself, not a coroutine around it: a wrapper allocates a generator at
    # every sleep of every task (~300 a second, ~18 KB/s of garbage; issue 20).
    app = App(
        hw,
        RecordsStore(""),
        time.ticks_ms,
        time.ticks_diff,
        asyncio.sleep_ms,
        ticks_us=time.ticks_us,
    )
    # What building and resuming the game left behind goes before the tasks start: their
    # first objects then fill the lowest holes, not the room above the garbage.
    gc.collect()
    try:
        asyncio.run(run(app, transport))
    finally:
        app.stop()
        hw["grid"].off()


main()
