"""A game record set up on the virtual board as players would set it up: each move's stone
placed, its clock pressed, its captures lifted, so the tracker (and the session log) hold the
record's game and play goes on from its last move (the page's "open SGF").

`replay_onto(board, plays)`: `plays` are host_tools.simulate's Moves (firmware point indexes,
None for a pass); returns the board time reached. A move the tracker does not take (the
record breaks the board's rules, e.g. a ko the record's rules allow) is one clear InputError
naming it; nothing of the half-built board is kept by the caller (a new game replaces it).
"""

from ingrules.board import BLACK

from host_tools.errors import InputError

STEP_MS = 200  # between a stone and its press, and between two moves (board time)


def replay_onto(board, plays):
    tracker = board.tracker
    geometry = board.geometry
    for move in plays:
        color = "B" if move.color == BLACK else "W"
        before = len(tracker.game.plies)
        if move.point is not None:
            name = geometry.name(move.point)
            if board.stone(name) != ".":
                raise InputError("move %d (%s %s): the point is not empty" % (move.n, color, name))
            board.place(name, color)
            board.wait(STEP_MS)
        board.press(color)
        board.wait(STEP_MS)
        if len(tracker.game.plies) != before + 1:
            where = "pass" if move.point is None else geometry.name(move.point)
            alerts = [e.get("code") for e in board.events[-4:] if e.get("type") == "alert"]
            raise InputError(
                "move %d (%s %s) is not a legal move here%s"
                % (move.n, color, where, (": " + ", ".join(alerts)) if alerts else "")
            )
        for q in list(move.captured) + list(move.self_removed):
            name = geometry.name(q)
            if board.stone(name) != ".":
                board.lift(name)
        board.wait(STEP_MS)
    return board.t
