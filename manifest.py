# Freezes the ingboard firmware into a MicroPython build (read by MicroPython's
# tools/manifestfile.py, which provides metadata() and package()). `make firmware
# MICROPYTHON=<checkout>` builds the RP2040's firmware with it (boards/INGBOARD_PICO/); for
# another board, in its manifest:
#     include("/path/to/ingboard/manifest.py")
# then build MicroPython v1.28.0 as usual. main.py (the entry point) stays on the file system:
# copy it with `ingboard flash --frozen` or `mpremote cp firmware/main.py :main.py`.
# For `mpremote mip install`, see firmware/package.json. The rules core (package ingrules) is a
# distribution of its own in firmware/rules/, included as a dependency (is_require: its own
# metadata(), as require() includes a micropython-lib package; a plain include shares this
# file's metadata and manifestfile refuses a second metadata() call).
# ruff: noqa: F821

metadata(
    description="ingboard: instrumented go set firmware (board, Ing bowls, clock)", version="0.1.0"
)

include("firmware/rules/manifest.py", is_require=True)
package("ingboard", base_path="firmware")
