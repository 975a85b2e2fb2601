"""Where the virtual board and the game disagree, and why (ARCHITECTURE "The physical board is
not the game"): the marks the page draws (stones to lift, missing, of the wrong colour, each
with its reason) and the alerts standing now with their player-facing text.
"""

from ingrules.board import BLACK


def board_marks(rows, game, tracker):
    """Where the board and the game disagree (ARCHITECTURE "The physical board is not the
    game"): stones to lift (on the board, not in the game: captured, retracted by an undo, or
    simply wrong), stones missing (in the game, not on the board) and stones of the wrong
    colour. The player to move's one new stone, not yet committed, is not a difference, nor
    is a stone taken off in the pause (a dead chain being lifted)."""
    if game.phase == "ended":
        return {"lift": [], "missing": [], "wrong": [], "why": {}}
    board = game.board
    size = game.size
    lift, missing, wrong = [], [], []
    for i, row in enumerate(game.board.rows()):
        seen = rows[i]
        for col in range(size):
            name = board.name(board.index(col, size - 1 - i))
            want, got = row[col], seen[col]
            if want == got or got == "?":
                continue
            if want == ".":
                lift.append((name, got))
            elif got == ".":
                if game.phase != "paused":  # in the pause, dead stones are on their way off
                    missing.append(name)
            else:
                wrong.append(name)
    mover = "B" if game.to_play == BLACK else "W"
    leaving = _leaving_names(board, tracker)
    refused = {}  # point -> the rule's alert standing on it (suicide, ko, ...)
    for code, names in _alert_points(tracker):
        for name in names:
            refused.setdefault(name, code)
    new = [n for n, c in lift if c == mover and n not in leaving]
    if game.phase == "play" and len(new) == 1 and len(lift) == 1 and new[0] not in refused:
        lift = []  # the mover's stone, not yet committed (or pressed)
    why = {}
    captured = _captured_names(game)
    for name, _c in lift:
        if name in refused:
            why[name] = refused[name]
        elif name in leaving:
            why[name] = "captured" if name in captured else "taken-back"
        else:
            why[name] = "not-in-game"
    for name in missing:
        why[name] = "missing"
    for name in wrong:
        why[name] = "wrong-colour"
    return {"lift": [n for n, _c in lift], "missing": missing, "wrong": wrong, "why": why}


def _leaving_names(board, tracker):
    return [board.name(p) for p in tracker.leaving]


def _captured_names(game):
    """Points whose stone some ply captured (the latest plies first are enough: a point
    captured, played again and captured again is captured either way)."""
    board = game.board
    out = set()
    for ply in game.plies[-8:]:
        for q in list(ply.captured) + list(ply.self_removed):
            out.add(board.name(q))
    return out


def _alert_points(tracker):
    """(code, [point names]) of each alert standing now (tracker.active)."""
    board = tracker.game.board
    out = []
    for key in tracker.active:
        if not isinstance(key, tuple):
            continue
        code, p = key[0], key[1]
        names = []
        if isinstance(p, int) and p >= 0:
            try:
                names = [board.name(p)]
            except (IndexError, ValueError):
                names = []
        out.append((code, names))
    return out


def standing_alerts(tracker):
    """The alerts standing now, each with its player-facing text (core/alerts.py): what the
    page writes in the status line and marks on the board until the board is put right."""
    from ingboard import alerts

    texts = {code: alerts.alert_text(code) for code in alerts.codes()}
    return [
        {"code": code, "points": names, "text": texts.get(code, code)}
        for code, names in _alert_points(tracker)
    ]
