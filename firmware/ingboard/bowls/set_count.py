"""One 180 check of the set (set_checks.py's check(), which loads this module for it): each
bowl's count against what the check expects of it, and the display text of a `bowls` event.
The before-game check drops it again; the checks after the count keep it until the next game
(gc_policy.END_MODULES).
"""

from ingboard.bowls.weighing import NAMES, colour_index


def check(bowls, phase, now_ms, black, white, kept_out):
    """The `bowls` event of one check (SetChecks.check); a count not as expected is a
    `bowl-mismatch` alert (Reconciliation._mismatch)."""
    if black is not None or white is not None:
        bowls._told(black, white)
    event = {"type": "bowls", "t": now_ms, "phase": phase}
    expect = {}
    confident = True
    diffs = [0, 0]
    for i in (0, 1):
        bowl = bowls.bowls[i]
        if phase == "before" and not bowl.w180 and bowl.candidate is not None:
            if bowl.settled and not bowl.faulty:
                bowls._enrol_candidate(bowl)
        n = bowls.count(bowl.name)
        if phase == "before" and not bowl.verified:
            # Ing 1991 Art. 9 "Counting" (1): a set never counted with the frame is not
            # confirmed as 180 by its own weight ("unverified"; check_text).
            n = None
        if phase == "put-away":
            expected = bowls.total
        elif phase == "play":
            expected = None
        elif phase == "after-count" and kept_out and bowl.lid_n >= 0:
            # The lid says how many prisoners are out (a few may still be on their way).
            expected = bowls.total - bowl.on_board
            low = expected - bowl.lid_n - bowl.in_lid
            if n is not None and low <= n < expected:
                expected = n
            elif n is None or n < low:
                expected = low
        elif phase == "after-count" and kept_out:
            expected = bowls.total - bowl.on_board - bowl.in_lid
            if bowls.pass_stones == "prisoner":
                expected -= bowl.pass_out
        else:
            expected = bowls.total - bowl.on_board
        if (
            phase == "after-count"
            and bowls.pass_stones == "beside"
            and n is not None
            and expected - bowl.pass_out <= n < expected
        ):
            # Ing 1991 Art. 9 "Passing" (2): the stones of the last pass plays may still
            # lie beside the board ("one stone beside the board"): accounted for.
            expected = n
        if n is None:
            confident = False
        elif expected is not None:
            diffs[i] = n - expected
        event[bowl.name] = n
        expect[bowl.name] = expected
    for i in (0, 1):
        if diffs[i]:
            bowl = bowls.bowls[i]
            n = event[bowl.name]
            bowls._mismatch(bowl, n, n - diffs[i], diffs[1 - i], now_ms)
    event["confident"] = confident
    event["expected"] = expect
    event["verified"] = {"B": bowls.bowls[0].verified, "W": bowls.bowls[1].verified}
    return event


def check_text(event, color):
    """Display text of a `bowls` event for one colour: '180 ok', '179 !' (not as expected), '---'.

    '---' is an uncertain count (the bowl is moving, the scale is noisy or faulty); 'unverified'
    a before-game check of a set whose weight was never enrolled after a count with the frame.
    """
    name = NAMES[colour_index(color)]
    n = event.get(name)
    if event.get("phase") == "before" and not (event.get("verified") or {}).get(name, True):
        return "unverified"  # Ing 1991 Art. 9 "Counting" (1): count the set with the frame
    if n is None:
        return "---"
    expected = event.get("expected", {}).get(name)
    if expected is None:
        return "%d" % n
    return "%d %s" % (n, "ok" if n == expected else "!")
