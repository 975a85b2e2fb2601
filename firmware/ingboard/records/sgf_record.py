"""The complete SGF record of a tracked game: what the board knows, in the properties other
programs read, and enough for `ingboard score` to give exactly the recorded result again.

`record_sgf(game, clock, config, ply_props, notes)`:
- root: TM/OT (clock_sgf_root), DT/EV/RO/PB/PW from the config when known, RE (B+3, W+R, B+T,
  W+F, B+0 for an Ing draw awarded to Black), IP (penalty points), and the writer's own
  GM/FF/CA/AP/SZ/RU/IR/KM/HA/IC/AB (sgf.game_sgf);
- comments: `notes` {plies: [text]} - alerts, retractions, accepted shifts (`Notes.add`);
- the dead stones of a counted game on the last node (`dead_markup`): territory markup TB/TW
  (empty points and dead stones of the area each side counts, as FF[4] defines it) and the
  private DS listing the dead stones themselves, which `ingboard score` and `ingboard simulate`
  take off before counting.
"""

from ingrules.board import BLACK, WHITE
from micropython import const

from ingboard.clock import clock_sgf_root

# The SGF writer (ingrules/sgf.py) and the scoring (scoring.py) are imported by the functions
# that write, not here, and the app loads this module only to write a game's SGF: on a Pico
# with .mpy on littlefs their code would take heap from the game until it ends.

# Config keys (all optional strings) -> SGF root properties.
INFO_KEYS = (("date", "DT"), ("event", "EV"), ("round", "RO"))


def dead_markup(game, checkpoint=None):
    """[(prop, [values])] for the last node of a game ended by counting: TB/TW and DS.
    `checkpoint()` is called between slices (the app's scan checkpoint, issue 20)."""
    if game.end_reason != "count":
        return []
    from ingrules.scoring import empty_regions

    board = game.board  # the dead stones have been taken off (game.dead)
    terr = [[], [], []]
    for region, touches in empty_regions(board, checkpoint):
        if touches in (BLACK, WHITE):
            terr[touches].extend(region)
    cp = checkpoint or _no_checkpoint
    cp()
    dead = [p for p, _color in game.dead]
    # Named a slice at a time, then sorted (a long game's territories, ~300 points, took
    # ~60 ms of the RP2040 in one piece and held up a scan, issue 20).
    return [
        ("TB", _sgf_names(board, terr[BLACK], cp)),
        ("TW", _sgf_names(board, terr[WHITE], cp)),
        ("DS", _sgf_names(board, dead, cp)),
    ]


_NAMES_A_SLICE = const(32)


def _sgf_names(board, points, cp):
    names = []
    for i in range(0, len(points), _NAMES_A_SLICE):
        for p in points[i : i + _NAMES_A_SLICE]:
            names.append(board.sgf(p))
        cp()
    names.sort()
    cp()
    return names


_AP = "ingboard:"  # the SGF's AP property: this firmware and its version


def _no_checkpoint():
    pass


def record_sgf(game, clock, config, ply_props=(), notes=None, write=None, checkpoint=None):
    """The SGF text of a tracked game (see the module docstring); with `write`, given piece by
    piece to write(str) instead (the board writes it straight to its file), `checkpoint()`
    called between the slices of the dead-stone markup (the app's scan checkpoint)."""
    from ingrules.sgf import game_sgf, write_sgf

    from ingboard import VERSION

    if checkpoint is not None:
        checkpoint()
    root = clock_sgf_root.root_props(clock)
    for key, prop in INFO_KEYS:
        if config.get(key):
            root.append((prop, config[key]))
    players = config.get("players") or {}
    if players.get("B"):
        root.append(("PB", players["B"]))
    if players.get("W"):
        root.append(("PW", players["W"]))
    if game.result:
        root.append(("RE", game.result))
    root += clock_sgf_root.penalty_props(clock)
    by_ply = notes.by_ply if notes is not None else None
    if write is not None:
        return write_sgf(
            write, game, root, ply_props, by_ply, dead_markup(game, checkpoint), _AP + VERSION
        )
    return game_sgf(game, root, ply_props, by_ply, dead_markup(game), _AP + VERSION)


def tracker_sgf(tracker, write=None):
    """The SGF of a tracked game (a Tracker: its game, clock, config, per-ply clock properties
    and notes); with `write`, given piece by piece to write(str) - the board writes it straight
    to its file, never holding a long game's SGF in memory - between the tracker's scan
    checkpoints."""
    if write is None:
        return record_sgf(
            tracker.game, tracker.clock, tracker.config, tracker.ply_props, tracker.notes
        )
    checkpoint = tracker.checkpoint
    if checkpoint is not None:
        checkpoint()  # loading this module was a slice of its own on the Pico
    record_sgf(
        tracker.game,
        tracker.clock,
        tracker.config,
        tracker.ply_props,
        tracker.notes,
        write,
        checkpoint,
    )
