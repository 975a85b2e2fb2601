"""Code loaded only when needed and dropped after (issue 17, gc_policy.drop): on the stock Pico
image the code of .mpy files is heap, so what runs once (the resume at boot) or rarely (the
host's diagnostic commands, the journal's compaction) must not stay loaded. Under MicroPython
(tests/test_under_micropython.py) the modules really go; on CPython drop() keeps them (no heap
to give back, and tests compare their classes), which is checked too."""

import sys

from app_fakes import VirtualTime, clear_records, hardware
from ingboard import gc_policy
from ingboard.app.app import App
from ingboard.link.commands import Protocol
from ingboard.records.store import RecordsStore
from test_app import LOG

# (records/session_read.py too, where a session log rebuilt the game; the tests' fakes read logs
# with it, so it is not checked here.)
ONCE = (
    "ingboard.app.resume",
    "ingboard.records.journal_replay",
    "ingboard.tracking.tracker_restore",
    "ingboard.link.host_commands",
)


def _heap_is_code():
    import gc

    return hasattr(gc, "mem_alloc")  # MicroPython: the one whose code drop() gives back


def test_drop_forgets_a_module_and_its_package_attribute_and_it_loads_again():
    import ingboard
    from ingboard.link import host_commands

    first = host_commands.cmd_list
    gc_policy.drop("ingboard.link.host_commands")
    if _heap_is_code():
        assert "ingboard.link.host_commands" not in sys.modules
        assert not hasattr(ingboard, "host_commands")
    else:
        assert sys.modules["ingboard.link.host_commands"] is host_commands
    from ingboard.link import host_commands as again

    assert again.cmd_list.__name__ == first.__name__ == "cmd_list"
    gc_policy.drop("ingboard.no_such_module")  # never loaded: nothing to do


def test_a_rare_command_is_answered_and_its_code_dropped():
    class Store:
        def finished(self):
            return [{"name": "0001.sgf", "number": 1, "bytes": 10}]

    class Board:
        store = Store()

    replies = Protocol(Board()).handle('{"cmd": "list"}')
    assert replies == [{"type": "games", "files": Store().finished()}]
    refused = Protocol(Board()).handle('{"cmd": "read", "name": "0001.sgf"}')
    assert refused[0]["type"] == "error" and refused[0]["cmd"] == "read"
    if _heap_is_code():
        assert "ingboard.link.host_commands" not in sys.modules


def test_the_rule_systems_rows_are_read_for_a_ruleset_and_forgotten():
    # ingrules/ruleset_rows.py: each rule system's row and AGA's handicap table, read when a
    # Ruleset is first made or a fixed handicap placed (the rules package's own drop).
    import ingrules
    from ingrules import rulesets
    from ingrules.game import Game

    rulesets._MADE.pop("japanese", None)  # made afresh: its row is read
    japanese = rulesets.get("japanese")
    assert (japanese.komi, japanese.seki_territory, japanese.sgf_ru) == (6.5, False, "Japanese")
    assert rulesets.get("japanese") is japanese
    game = Game(9, "aga", handicap=2)
    assert sorted(game.board.name(p) for p, _c in game.setup) == ["C3", "G7"]
    try:
        rulesets.get("no-such-rules")
    except ValueError as exc:
        assert "tromp-taylor" in str(exc)
    else:
        raise AssertionError("unknown rules accepted")
    if _heap_is_code():
        assert "ingrules.ruleset_rows" not in sys.modules
        assert "ruleset_rows" not in ingrules.__dict__  # (hasattr: its __getattr__ loads it)
    else:
        assert "ingrules.ruleset_rows" in sys.modules  # CPython keeps it


def test_a_resumed_app_keeps_none_of_the_code_it_used_once():
    root = "/tmp/ingboard-test-code-loading"
    clear_records(root)
    vt = VirtualTime()
    cfg, hw = hardware(vt, LOG)
    app = App(hw, RecordsStore(root), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    vt.drive(app, 5000)
    app.journal_file.flush()
    vt2 = VirtualTime()
    _cfg, hw2 = hardware(vt2, LOG)
    again = App(hw2, RecordsStore(root), vt2.ticks_ms, vt2.ticks_diff, vt2.sleep_ms, cfg)
    assert [p.point for p in again.tracker.game.plies] == [p.point for p in app.tracker.game.plies]
    assert again.tracker.game.plies  # the journal had a game: resume.py ran
    if _heap_is_code():
        assert [name for name in ONCE if name in sys.modules] == []


def test_the_ends_modules_are_loaded_one_a_slice_from_a_pass_on():
    # Issue 20: imported at the count, each of the end's modules was a piece of 11-35 ms of
    # the RP2040 (85 ms with the result face's first drawing) that held up a scan. Where the
    # code runs in place they are loaded from a pass on (Ing 1991, Pass Play Section A 4:
    # "When both players make one pass play each in succession, play pauses"; the dead stones
    # are taken away, then counted; issue 32: brisk players' passes left the pause too few
    # periods for all of them), one per background slice; none before the first pass.
    from ingboard import gc_policy
    from test_app import LOG, _board

    log = LOG + "5000 press B\n6000 press W\n"  # two moves, then a pass each
    vt, _cfg, _hw, app = _board("/tmp/ingboard-test-end-preload", log)
    assert app.end_preload.left == []  # CPython: the code is no heap to spare
    app.end_preload = gc_policy.EndPreload(gc_policy.END_MODULES)
    steps = []
    real = app.end_preload.step
    app.end_preload.step = lambda: steps.append(app.now()) or real()
    vt.drive(app, 4900, stop=False)
    assert steps == [] and app.tracker.game.phase == "play"  # no pass yet: not yet
    vt.drive(app, 7000)
    assert app.tracker.game.phase == "paused"
    assert len(steps) == len(gc_policy.END_MODULES) and app.end_preload.left == []
    assert len(set(steps)) == len(steps)  # one a slice
    assert 5000 <= steps[0] < 6000  # from Black's pass on


def test_an_end_module_that_does_not_load_in_the_pause_is_reported_and_the_game_goes_on():
    # issue 19 (no input stops the board program): the pause's preload runs in the scan task
    # too; an import that fails there (a MemoryError in a fragmented heap on the board; here a
    # module that raises) is reported, the rest is preloaded, and the game still ends and is
    # written (Ing 1991, Pass Play Section A 4: two passes pause the game).
    from ingboard import gc_policy
    from test_app import LOG, _board

    log = LOG + "5000 press B\n6000 press W\n"  # two moves, then a pass each
    vt, _cfg, hw, app = _board("/tmp/ingboard-test-end-preload-fails", log)
    vt.drive(app, 7000, stop=False)
    assert app.tracker.game.phase == "paused"
    # The scan task, the first task at each instant, meets the module that fails right after
    # a scan (outside the game task's own handler).
    broken = "ingboard.no_such_end_module"
    app.end_preload = gc_policy.EndPreload((broken,) + gc_policy.END_MODULES)
    vt.drive(app, 7600, stop=False)
    assert not app.stopping and app.failure is None
    assert app.end_preload.left == []  # the others preloaded after it
    warnings = [m for m in hw["link"].messages() if m["type"] == "warning"]
    assert any(broken in m["text"] for m in warnings), warnings
    app.step((app.BUTTON, app.now(), "resign-W", None))  # Ing 1991 Art. 9 "Resigning"
    assert app.tracker.game.phase == "ended" and app.saved


def test_a_preload_without_a_report_raises():
    from ingboard import gc_policy

    preload = gc_policy.EndPreload(("ingboard.no_such_end_module",))
    try:
        preload.step_once(None)
    except ImportError:
        pass
    else:
        raise AssertionError("the failed import was not raised")
    assert preload.left == []


def test_code_in_place_is_told_by_where_the_module_is():
    from ingboard import gc_policy

    assert gc_policy.code_in_place("/rom/ingboard/gc_policy.mpy")
    assert gc_policy.code_in_place("ingboard/gc_policy.py-frozen-nowhere")
    assert not gc_policy.code_in_place(gc_policy.__file__)


def test_a_new_game_drops_the_last_games_end_and_preloads_it_again():
    # The count, the fill-in plan, the SGF writer and the result face are the end's code: a new
    # game does not keep the last game's (gc_policy.drop_end) and, where the code runs in
    # place, its own pause loads them again (a fresh EndPreload).
    from test_app import _board

    vt, cfg, _hw, app = _board("/tmp/ingboard-test-end-dropped", LOG)
    vt.drive(app, 5000, stop=False)
    app.step((app.BUTTON, app.now(), "resign-W", None))  # Ing 1991 Art. 9 "Resigning"
    assert app.tracker.game.phase == "ended" and app.saved
    if _heap_is_code():
        assert "ingboard.records.sgf_record" in sys.modules  # the SGF was written with it
    app.end_preload.left = []  # as after a pause that preloaded them all
    number = app.number
    app.new_game(cfg)
    assert app.number == number + 1 and app.tracker.game.phase == "play"
    if _heap_is_code():
        assert [name for name in gc_policy.END_MODULES if name in sys.modules] == []
    in_place = gc_policy.code_in_place()
    assert app.end_preload.left == (list(gc_policy.END_MODULES) if in_place else [])
    # The next game's end loads what it needs again and is written as the first was.
    app.step((app.BUTTON, app.now(), "resign-B", None))
    assert app.tracker.game.phase == "ended" and app.saved
    assert app.tracker.game.result == "W+R"
    sgfs = [f["number"] for f in app.store.finished() if f["name"].endswith(".sgf")]
    assert sgfs == [number, number + 1]
    app.stop()
