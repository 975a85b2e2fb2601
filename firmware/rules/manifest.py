# ingrules for MicroPython's manifest tools (freezing), read by tools/manifestfile.py which
# provides metadata() and package(); the ingboard firmware's manifest includes this file.
# For `mpremote mip install`, see package.json beside it; for pip, pyproject.toml.
# ruff: noqa: F821

metadata(
    description="ingrules: the rules of go as the Ing rules play them (board, ko, game, counting)",
    version="0.1.0",
    pypi_publish="ingrules",
)

package("ingrules", opt=3)
