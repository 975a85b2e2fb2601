# Freezes the ingboard firmware into a MicroPython build (read by MicroPython's
# tools/manifestfile.py, which provides metadata() and package()). In your board's manifest:
#     include("/path/to/ingboard/manifest.py")
# then build MicroPython 1.29 as usual. main.py (the entry point) stays on the file system:
# copy it with `ingboard flash` or `mpremote cp firmware/main.py :main.py`.
# For `mpremote mip install`, see firmware/package.json. The rules core (package ingrules) is a
# distribution of its own in firmware/rules/, included here.
# ruff: noqa: F821

metadata(
    description="ingboard: instrumented go set firmware (board, Ing bowls, clock)", version="0.1.0"
)

include("firmware/rules/manifest.py")
package("ingboard", base_path="firmware")
