"""A long game's end, ready on a board's flash (issue 20: the count after a long game).

Playing a 600-ply game through the twin takes 15-40 minutes; the end of the game - the last
pass, the count, the SGF and the session log - needs only the position and the records. So the
game is played here, on the host, by the device app's own code (`ingboard.app.app.App` under
CPython, its inputs stepped as the game task steps them: the stones as scans, the clock
presses, the captured stones lifted), which writes its journal exactly as the board writes it.
The board is then booted with that journal on its flash (`files`), the stones of the position
on its grid and the bowls holding the rest of each set (`position`, `grams`): its app resumes
the game from the journal (as after a power cut) and the players make the last pass.

The session log on flash is cut to its header, its config and its last line (the app resumes
from its tail and appends to it; the whole log of a long game is ~0.5 MB, longer to put through
the raw REPL than the game's end takes): the board's records after the count are its SGF and
the session log closed, not a replayable log of the whole game.

    end = prepare(moves, config)      # {"files", "position", "grams", "plies", "last", ...}
"""

import os
import tempfile

from ingboard import storage_paths as paths

import host_tools  # noqa: F401  (puts firmware/ on sys.path)

STONE_G = 7.0
STEP_MS = 150  # board ms between two inputs of the players (a stone, a press, a lift)


class _Time:
    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        self.now += ms


def prepare(plies, config, keep_last=1, work_dir=None):
    """The game of `plies` (host_tools/twin/long_game.brisk's Ply list, ending with passes)
    played by the app on the host but for its last `keep_last` plies (passes: the players
    make them on the board). Returns {"files": {board path: bytes}, "position": the grid's
    rows text, "grams": {colour: grams in the bowl}, "played": plies stepped, "last": the
    plies left to make, "tracker": the host app's tracker (for comparison), "number": the
    game's number}."""
    from ingboard.app.app import App
    from ingboard.records.journal_replay import compact
    from ingboard.records.store import RecordsStore
    from ingrules.board import BLACK, WHITE

    root = work_dir or tempfile.mkdtemp(prefix="ingboard-end-")
    store = RecordsStore(root)
    vt = _Time()
    app = App({}, store, vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, config)
    size = config["size"]
    empty = "/".join(["." * size] * size)
    position = empty
    t = 0
    app.step((1, t, empty.split("/"), None))
    played = plies[: len(plies) - keep_last]
    for ply in played:
        color = BLACK if ply.colour == "B" else WHITE
        if ply.stone is None:
            t += STEP_MS
            app.step((App.PRESS, t, color, None))
            continue
        t += STEP_MS
        position = ply.stone
        app.step((1, t, position.split("/"), None))
        t += STEP_MS
        app.step((App.PRESS, t, color, None))
        if ply.lift is not None:
            t += STEP_MS
            position = ply.lift
            app.step((1, t, position.split("/"), None))
    t += STEP_MS
    app.tick(t)
    app.journal_file.flush()
    app.log_file.flush()
    game = app.tracker.game
    if len(game.plies) != len(played):
        raise ValueError(
            "the host app took %d plies of the %d played" % (len(game.plies), len(played))
        )
    number = app.number
    jpath = store.journal_path
    with open(jpath, "rb") as f:
        journal = compact(f.read())  # as the board's compaction leaves it
    with open(store.session_part(number)) as f:
        lines = f.read().splitlines(True)
    session = "".join(lines[:2] + lines[-1:])
    board = game.board
    grams = {
        "B": round((180 - board.count[BLACK]) * STONE_G, 1),
        "W": round((180 - board.count[WHITE]) * STONE_G, 1),
    }
    name = "%04d%s%s" % (number, paths.SESSION_SUFFIX, paths.PART_SUFFIX)
    files = {
        paths.JOURNAL_DIR + "/game.jnl": journal,
        paths.SESSIONS_DIR + "/" + name: session.encode(),
    }
    return {
        "files": files,
        "position": position,
        "grams": grams,
        "played": played,
        "last": plies[len(played) :],
        "tracker": app.tracker,
        "number": number,
        "t": t,
        "root": root,
    }


def long_end(plies_n=600, keep_last=1, work_dir=None):
    """prepare() for tests/long_game.py's game of `plies_n` plies and the four passes of Ing
    1991 Art. 1 (the players make the last `keep_last` on the board)."""
    import sys

    from host_tools import ROOT
    from host_tools.twin import long_game as lg

    tests = os.path.join(ROOT, "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    from long_game import long_game

    moves, _largest = long_game(plies_n)
    plies, config = lg.brisk(moves)
    out = prepare(plies, config, keep_last, work_dir)
    out["config"] = config
    return out


def count_on_twin(end, work_dir, log=None):
    """Boot a twin with `end` (prepare()) on its flash, let the app resume, make the last
    plies (passes, with the keys) and wait for the game's end; then the records. A dict:
    "resumed" {"phase", "plies"}, "pass", "count", "plan", "end" (the app's events), "mem_before",
    "mem_after" (the `mem` command: after a collection, largest block), "cpu" (the `cpu`
    command over the end: scan_late_max_us is the longest the end held up a scan), "end_ms"
    (emulated ms from the press to the end event), "sgf" (read back), "warnings" (after the
    resume's own), "noise"."""
    from host_tools.twin import long_game as lg

    log = log or (lambda text: None)
    board = lg.Board(work_dir, position=end["position"], grams=end["grams"], files=end["files"])
    with board:
        state = board.command({"cmd": "state"})
        held = board.plies()
        resumed = {"phase": state.get("phase"), "plies": len(held)}
        board.twin.run_ms(1000)  # the resumed app settles (its first scans and faces)
        mem_before = board.command({"cmd": "mem"})
        board.twin.run_ms(500)  # the `mem` command's collections are not the end's
        board.command({"cmd": "cpu", "reset": True})
        board.looked = len(board.messages)
        start = len(board.messages)
        us0 = board.twin.status()["us"]
        for ply in end["last"]:
            board.apply("key", ply.colour)
            board.run_until(
                lambda m, c=ply.colour: m.get("type") == "pass" and m.get("color") == c
            )
        done = board.run_until(lambda m: m.get("type") == "end")
        end_ms = (board.found_us - us0) / 1000.0
        cpu = board.command({"cmd": "cpu"})
        mem_after = board.command({"cmd": "mem"})
        during = board.messages[start:]
        sgf = board.read_file("%04d.sgf" % end["number"])
        noise = [n for n in board.noise if n != "MPY: soft reboot"]
        warnings = [
            m["text"]
            for m in board.messages
            if m.get("type") == "warning" and not m["text"].endswith(" resumed at move %d" % (
                len(held)))
        ]  # fmt: skip

    def last(kind):
        found = [m for m in during if m.get("type") == kind]
        return found[-1] if found else None

    out = {
        "resumed": resumed,
        "pass": last("pass"),
        "count": last("count"),
        "plan": last("plan"),
        "end": done,
        "mem_before": mem_before,
        "mem_after": mem_after,
        "cpu": cpu,
        "end_ms": end_ms,
        "sgf": sgf,
        "warnings": warnings,
        "noise": noise,
    }
    log(
        "# twin count: %d plies resumed; the end %.0f ms emulated, a scan held up %.0f ms at "
        "most; largest free block %s -> %s B, free %s -> %s B"
        % (
            resumed["plies"],
            end_ms,
            cpu["scan_late_max_us"] / 1000,
            mem_before.get("largest"),
            mem_after.get("largest"),
            mem_before.get("free"),
            mem_after.get("free"),
        )
    )
    return out
