# ingboard on a Raspberry Pi Pico (RP2040): MicroPython's RPI_PICO board with the ingboard and
# ingrules packages frozen into the firmware (manifest.py beside this file), so that their code
# runs in place from flash instead of being copied into the RP2040's 240 KB heap.
# Built by `make firmware MICROPYTHON=<checkout of MicroPython v1.28.0>` (host_tools/firmware_image.py).
set(PICO_BOARD "pico")
set(PICO_PLATFORM "rp2040")
set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/manifest.py)
