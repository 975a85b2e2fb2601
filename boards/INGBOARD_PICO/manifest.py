# The frozen modules of the INGBOARD_PICO firmware: what MicroPython's rp2 boards freeze
# (asyncio, onewire, ...) plus the ingboard and ingrules packages (the project's manifest.py).
# main.py is not frozen: it stays on the file system (`ingboard flash --frozen` puts it there).
# ruff: noqa: F821
include("$(PORT_DIR)/boards/manifest.py")
include("$(BOARD_DIR)/../../manifest.py")
