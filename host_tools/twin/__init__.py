"""The device twin: the real MicroPython rp2 firmware running on an emulated RP2040 (rp2040js).

Layout (one part each; docs/device-twin.md says what it is for):

| module | what |
|---|---|
| `images.py` | where the firmware images and the boot ROM are (`$INGBOARD_MCU_DIR`) |
| `process.py` | `Twin`: the Python API (start/stop, run N emulated ms, raw-REPL exec, cuts) |
| `pty_bridge.py` | the twin's USB serial as a pseudo-terminal (mpremote, `ingboard flash/pull`) |
| `server.mjs` | the node process `Twin` drives (JSON lines on stdin/stdout) |
| `machine.mjs` | RP2040 + boot ROM + UF2 image + run loop in emulated time, power cuts |
| `nor_flash.mjs`, `ssi.mjs` | the SPI NOR flash behind the SSI: erase/program persist |
| `usb_serial.mjs` | USB CDC host side that holds idle OUT reads (as a real host NAKs) |
| `board.mjs` | the interface hardware models plug into (pins, ADC, I2C, timed hooks) |
| `uf2.mjs` | UF2 image loader |
"""
