"""ingrules: the rules of go as the Ing rules and other rule systems play them - the board, ko
policies (simple, superko and the Ing fighting/disturbing ko), rulesets as data, the game state
machine, scoring and counting (area, territory, the Ing fill-in) and an SGF writer.

Pure Python that runs unchanged on CPython and MicroPython. The public names below load their
module on first use (`from ingrules import Game` loads game.py and what it needs, nothing
else); the modules can also be imported directly. README.md beside this package is the API.
"""

VERSION = "0.1.0"

# const() for the modules (`from . import const`): MicroPython's, folded where it compiles them;
# on CPython only a marker. Once here, not a fallback in each module.
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# public name -> module (loaded on first use; micropython-async's primitives do the same)
_ATTRS = {
    "Board": "board",
    "BLACK": "board",
    "WHITE": "board",
    "EMPTY": "board",
    "Game": "game",
    "IllegalMove": "game",
    "KoRule": "ko",
    "PASS": "ko",
    "Ruleset": "rulesets",
    "count_game": "counting",
    "game_sgf": "sgf",
    "write_sgf": "sgf",
}


def __getattr__(name):
    module = _ATTRS.get(name)
    try:
        if module is None:
            # A submodule not loaded yet: MicroPython's `from ingrules import board` asks here
            # before it looks for the submodule.
            return __import__(name, globals(), None, [name], 1)
        value = getattr(__import__(module, globals(), None, [name], 1), name)
    except ImportError:
        raise AttributeError(name) from None
    globals()[name] = value
    return value
