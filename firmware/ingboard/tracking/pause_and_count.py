"""The end of the game, as the tracker (game_end.py) calls it: the dead stones taken off in the
pause, the agreement, the count, the fill-in and the put-away checks. Loaded the first time a
game reaches its pause or its end, not with the tracker: heap the game does not need before
(gc_policy.END_MODULES: a new game drops it with the rest of the end's code). Each function
takes the Tracker; the state it changes is GameEnd's (game_end.py).
"""

from ingrules.board import BLACK, EMPTY, WHITE, color_name
from ingrules.game import PAUSED
from micropython import const

from ingboard.alerts import alert_text
from ingboard.tracking.board_view import UNKNOWN

PUT_AWAY_MS = const(2000)


def _no_checkpoint():
    pass


def dead_stones(tracker, t, missing):
    # During the pause: a chain whose stones are all gone from the board is dead.
    events = []
    board = tracker.game.board
    done = []
    for p in missing:
        if p in done or board.get(p) == EMPTY:
            continue
        chain = board.chain(p)
        gone = True
        for q in chain:
            if q not in missing or t - tracker.since[q] < tracker.settle_ms:
                gone = False
        for q in chain:
            done.append(q)
        if gone:
            color = board.get(p)
            tracker.game.remove_dead(p)
            events.append(_chain_event(t, "removal", color, board, chain))
    return events


def _chain_event(t, kind, color, board, chain):
    # A dead chain taken off ("removal") or put back ("restored"): its colour and points.
    return {
        "t": t,
        "type": kind,
        "color": color_name(color),
        "points": [board.name(q) for q in chain],
    }


def agree(tracker, t):
    """The players agree on the dead stones as they now stand on the board (button
    `agree`). While they are still taking them off - a chain partly lifted, a stone lifted
    within the settle time, a hand over the board - the agreement waits for the board to
    be still: a count never counts a board that holds stones being removed (Ing 1991
    Art. 1 "Pass Play": "After the dead stones have been taken away, both players pass
    again and play ends"; AGA Rule 9: "If the players agree on the status of all such
    groups, they are removed from the board ... and the game is scored")."""
    if tracker.game.phase == PAUSED and _removing(tracker, t):
        tracker.agree_pending = True
        return []
    tracker.agree_pending = False
    tracker.game.agree()
    # A count with nothing to fill in (AGA, Chinese, ...) is checked at once: the board
    # may never change again before the stones are put away.
    return ended(tracker, t) + after_end(tracker, t)


def agreed_when_still(tracker, t):
    # The agreement kept by _agree: made once the dead stones are wholly off (or back);
    # withdrawn when play resumes.
    if not tracker.agree_pending:
        return []
    if tracker.game.phase != PAUSED:
        tracker.agree_pending = False
        return []
    if _removing(tracker, t):
        return []
    return agree(tracker, t)


def _removing(tracker, t):
    # Dead stones being taken off: a stone the game still has reads empty (a chain not yet
    # wholly off, or just lifted), or the board is hidden or changing.
    if tracker._unknown_points() or tracker._changing(t):
        return True
    seen = tracker.seen
    cells = tracker.game.board.cells
    faulty = tracker.faulty
    leaving = tracker.leaving
    for p in tracker.order:
        if seen[p] == EMPTY and cells[p] != EMPTY and not faulty[p] and p not in leaving:
            return True
    return False


def put_back(tracker, t, new):
    # During the pause a stone put back where a dead stone was taken off (by mistake)
    # restores that removal (Ing 1991 Art. 8 "Mistaken removal": parity is restored with no
    # penalty); it is no move.
    events = []
    game = tracker.game
    for p in new:
        color = tracker.seen[p]
        if (p, color) in game.dead and t - tracker.since[p] >= tracker.settle_ms:
            chain = game.restore_dead_chain(p)
            events.append(_chain_event(t, "restored", color, game.board, chain))
    return events


def ended(tracker, t):
    game = tracker.game
    tracker.clock.unhold()  # a press kept for the board no longer matters: the game is over
    events = tracker._clock_events(t, tracker.clock.pause(t)) if tracker.clock.running() else []
    if game.end_reason == "count":
        # Imported at the count, not with the tracker: the scoring is heap the game does
        # not need until then (.mpy on littlefs, docs/flashing.md). Loading a module
        # is a slice of its own on the Pico: the scan may run between (issue 20).
        cp = tracker.checkpoint or _no_checkpoint
        cp()
        from ingrules import scoring  # noqa: F401  (loaded here, used by counting)

        cp()
        from ingrules.counting import count_game

        cp()
        pb = tracker.clock.penalty(BLACK)
        pw = tracker.clock.penalty(WHITE)
        count, plan = count_game(game, penalty_b=pb, penalty_w=pw, checkpoint=tracker.checkpoint)
        if tracker.checkpoint is not None:
            tracker.checkpoint()
        count["t"] = t
        game.result = count["result"]
        tracker.counted = count
        tracker.plan = plan
        board = game.board
        if plan is None:
            tracker.fill_target = (board.count[BLACK], board.count[WHITE])
        elif plan.get("final"):
            # Ing 1991 Art. 4 "All stones are filled in to count": the board will hold
            # the plan's final position once both players have filled in.
            final = "".join(plan["final"])
            tracker.fill_target = (final.count("B"), final.count("W"))
        else:
            tracker.fill_target = None  # no layout fits (territory too small): no check
        events.append(count)
        if plan is not None:
            # Imported here: the fill-in modules are needed only at the end (heap_code).
            from ingboard.tracking.fill_in_check import plan_event

            if tracker.checkpoint is not None:
                tracker.checkpoint()
            events.append(plan_event(plan, t))
    events.append({"t": t, "type": "end", "result": game.result, "reason": game.end_reason})
    return events


def after_end(tracker, t):
    # After the count: the bowls are checked when the fill-in is complete (Ing 1991 Art. 9
    # "to confirm that the game was counted correctly") and once the stones are put away.
    if tracker.checkpoint is not None:
        tracker.checkpoint()  # right after the count, this look at every point is a slice
    counts = [0, 0, 0, 0, 0]
    seen = tracker.seen
    since = tracker.since
    latest = 0
    for p in tracker.order:
        counts[seen[p]] += 1
        if since[p] > latest:
            latest = since[p]
    if counts[UNKNOWN] or t - latest < tracker.settle_ms:
        return []
    events = []
    target = tracker.fill_target
    filled = not tracker.filled and target and (counts[BLACK], counts[WHITE]) == target
    if filled and tracker.plan and not tracker.bowls.settled() and t - latest < 2 * PUT_AWAY_MS:
        # The last stone of the fill-in came out of a bowl a moment ago: the check waits
        # for the bowls to settle (each reading looks again, tracker._bowl), as the
        # put-away check does - a count is never taken from a bowl still moving. The
        # fill-in itself is read at once.
        filled = False
        if not tracker.fill_waiting:
            tracker.fill_waiting = True
            tracker.fill_check_due = True
    elif not filled:
        tracker.fill_waiting = False
    if filled:
        tracker.filled = True
        # Ing fill-in counting puts every stone on the board or in its bowl; any other
        # count leaves the prisoners (and AGA pass stones) where they are (bowls.check).
        event = tracker.bowls.check(
            "after-count", t, counts[BLACK], counts[WHITE], tracker.plan is None
        )
        event["t"] = t
        events.append(event)
        events += tracker._bowl_alerts(t)
        if not tracker.fill_waiting:
            tracker.fill_check_due = True  # (read already while the bowls settled)
        tracker.fill_waiting = False
    if tracker.fill_check_due:
        tracker.fill_check_due = False
        events += _check_fill_in(tracker, t)
    if not counts[BLACK] and not counts[WHITE]:
        if not tracker.empty_since:
            tracker.empty_since = t  # the put-away check waits for the bowls (see _bowl)
    else:
        tracker.empty_since = 0
    return events


def _check_fill_in(tracker, t):
    # The fill-in read off the board (fill_in_check.py): an alert naming the points when it
    # is not as the plan has it; the `fill-in` event carries the result the board reads.
    plan = tracker.plan
    if plan is None or not plan.get("final") or tracker.counted is None:
        return []
    seen = tracker.seen
    stones = 0
    for p in tracker.order:
        if seen[p] == BLACK or seen[p] == WHITE:
            stones += 1
    board = tracker.game.board
    if stones < board.count[BLACK] + board.count[WHITE]:
        return []  # fewer stones than the counted position: being put away, not filled in
    from ingboard.tracking.fill_in_check import read_fill_in

    event = read_fill_in(tracker.game.board, plan, tracker.seen, tracker.counted)
    event["t"] = t
    tracker.fill_read = event
    events = [event]
    if event["disturbed"]:
        points = [board.parse(n) for n in event["disturbed"]]
        events.append(tracker._alert_event(t, "fill-in-disturbed", points))
    if event["wrong"] or not event["ok"]:
        points = [board.parse(n) for n in event["wrong"]]
        text = alert_text("fill-in-wrong") + " " + "; ".join(event["reasons"])
        events.append(tracker._alert_event(t, "fill-in-wrong", points, text))
    if event["result"] != tracker.counted["result"]:
        tracker.notes.add(
            len(tracker.game.plies),
            "fill-in on the board reads %s (count %s)"
            % (event["result"], tracker.counted["result"]),
        )
    return events


def fill_in_done(tracker, t):
    """A clock press after the count: the players say the fill-in is done - read it
    (again, after a correction)."""
    if tracker.plan is None or tracker.put_away:
        return []
    tracker.fill_check_due = True
    return after_end(tracker, t)


def put_away(tracker, t):
    # Ing 1991 Art. 9, 1996 Rule 2: 180 each once the stones are back in the bowls - when
    # the board has been empty a while and both bowls have settled since.
    if tracker.put_away or not tracker.empty_since or t - tracker.empty_since < PUT_AWAY_MS:
        return []
    if not tracker.bowls.settled() and t - tracker.empty_since < 2 * PUT_AWAY_MS:
        return []  # a scale that never settles gives an uncertain count (null), not none
    tracker.put_away = True
    return [tracker._bowls_event(t, "put-away")] + tracker._bowl_alerts(t)
