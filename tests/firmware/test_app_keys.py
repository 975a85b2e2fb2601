"""The app driven by its keys alone (issue 16): undo confirmed by both players' keys, a
resignation by the resigning player's key, through the real app on the fake drivers."""

from app_fakes import run_app

EMPTY = "/".join(["........."] * 9)
E5 = "/".join(["........."] * 4 + ["....B...."] + ["........."] * 4)
LOG = (
    "ingboard-session 1\n"
    '0 config {"size": 9, "rules": "ing1991", "time": {"system": "ing-pp", "basic_s": 600}}\n'
    "0 scan " + EMPTY + "\n"
    "1000 scan " + E5 + "\n"
    "1500 press B\n"
    "8000 scan " + EMPTY + "\n"  # the retracted stone goes back to the bowl
)


def _clean(root):
    import os

    for d in ("/games", "/sessions", "/journal", ""):
        try:
            for name in os.listdir(root + d):
                try:
                    os.remove(root + d + "/" + name)
                except OSError:
                    pass
        except OSError:
            pass


def test_undo_with_both_keys_then_a_resignation_with_one():
    root = "/tmp/ingboard-test-app-keys"
    _clean(root)
    keys = {
        # Pause; MENU: RESUME [UNDO]; select; Black's key, White's key: both confirm.
        # The undo puts the clock back as it was before the move (running for Black).
        # Pause again; MENU: RESUME [RESIGN]; select; White's key: White resigns.
        "pause": [3000, 8600],
        "menu": [3600, 4800, 9000, 10200],
        "W": [4200, 6000, 9600, 11400],
        "B": [5400],
    }
    app, hw = run_app(LOG, root, 13000, keys=keys)
    messages = hw["link"].messages()
    kinds = [m["type"] for m in messages if m["type"] in ("move", "pause", "undo", "end")]
    assert kinds == ["move", "pause", "undo", "pause", "end"], kinds
    end = [m for m in messages if m["type"] == "end"][0]
    assert end["result"] == "B+R" and end["reason"] == "resign"
    assert app.tracker.game.result == "B+R" and not app.tracker.game.plies
    assert not app.standalone.menu_open() and app.errors == {}
    log = open(root + "/sessions/0001.log.part").read()
    assert "button undo" in log and "button resign-W" in log  # replayable as any button
