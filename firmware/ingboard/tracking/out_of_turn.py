"""A press by the player whose clock is not running (part of the Tracker; issue 14 class 6,
issue 15 item 5). Loaded the first time a game needs it (presses.py), not with the tracker.

With no new stone of theirs on the board it is nothing at all: a double press, a key bounce,
the wrong key, a key held across a reboot - logged (in the session log) and ignored, never a
pass for anyone. With a new stone of theirs, the player has moved out of turn:

- their pressed stone is gone from its point and stands elsewhere: they changed a play after
  making it. Ing 1991 Art. 8 "Forfeiture" (3) "Retraction of a play: a player changes a play
  after making it" forfeits once the referee confirms it - the config's `retraction` setting:
  `forfeit`, or `record` (the default: an unattended board has no referee). Either way it is
  recorded (`retraction`, and a comment in the SGF); recorded only, the play as made stands and
  the stone goes back (an accepted change is the `undo` button).
- otherwise two moves in a row. AGA Rule 8: "the player must take back ... both moves ... it
  shall be treated as a pass, and a pass stone exchanged"; Ing 1996 "Penalized mistakes":
  "Making two consecutive moves ... the game is forfeited"; other rules (Ing 1991: no penalty
  named): the second stone is taken back. Always `two-moves`.
"""

from ingrules import rulesets as rs
from ingrules.board import EMPTY, color_name
from ingrules.game import ILLEGAL_PASS, MANDATORY_PASS


def out_of_turn(tracker, t, color):
    # Judged on a readable, stable board (presses.py keeps the press until then).
    game = tracker.game
    seen = tracker.seen
    mine = tracker._own_new_stones(color)
    if not mine:
        return []  # a double press, a bounce, the wrong key: nothing
    last = None
    for ply in reversed(game.plies):
        if ply.kind != MANDATORY_PASS:
            last = ply
            break
    if last is None or last.color != color:
        return []
    p = mine[0]
    board = game.board
    if last.point >= 0 and seen[last.point] == EMPTY:
        return _retraction(tracker, t, color, last.point, p)
    events = []
    policy = game.rules.illegal
    if policy == rs.ILLEGAL_FORFEIT_KO:
        points = [last.point, p] if last.point >= 0 else [p]
        events += tracker._alert(t, "two-moves", points, force=True)
        game.commit_illegal(color, "not-your-turn")  # Ing 1996: forfeit
        tracker._note("two moves in a row: %s" % " ".join(board.name(q) for q in points))
        return events + tracker._ended(t)
    if policy == rs.ILLEGAL_AS_PASS and last.point >= 0:
        # AGA Rule 8: both moves taken back; one pass (with its pass stone) instead.
        events += tracker._alert(t, "two-moves", [last.point, p], force=True)
        game.undo()
        del tracker.ply_props[len(game.plies) :]
        for q in last.captured:
            tracker.leaving.pop(q, None)
        tracker.leaving[last.point] = color
        tracker.leaving[p] = color
        events.append({"t": t, "type": "undo", "to_play": color_name(game.to_play)})
        game.pass_move(color, ILLEGAL_PASS)
        tracker._note(
            "two moves in a row (%s %s): taken back, a pass"
            % (board.name(last.point), board.name(p))
        )
        events.append(tracker._pass_event(t, color))
        tracker._played(t, color)
        return events
    # No penalty: the second stone is taken back.
    tracker.leaving[p] = color
    tracker._note("two moves in a row: %s taken back" % board.name(p))
    return events + tracker._alert(t, "two-moves", [p], force=True)


def _retraction(tracker, t, color, was, now):
    game = tracker.game
    board = game.board
    events = tracker._alert(t, "retraction", [was, now], force=True)
    tracker._note("retraction: %s changed to %s" % (board.name(was), board.name(now)))
    if tracker.config.get("retraction", "record") == "forfeit":
        game.forfeit(color)
        return events + tracker._ended(t)
    tracker.leaving[now] = color  # the changed stone goes; the play as made stands
    return events
