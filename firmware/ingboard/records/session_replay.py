"""A session log replayed through a Tracker: what `ingboard track`, the tests and the
benchmarks use to turn a log back into the game and its events, exactly as the board saw it.
"""

from ingboard.records.session import SessionLogError
from ingboard.tracking.presses import PRESS_WAIT_MS
from ingboard.tracking.tracker import SETTLE_MS, Tracker


def track(records, on_event, settle_ms=SETTLE_MS):
    """Replay session-log records (session.records) through a Tracker; on_event(event) for
    every event. Time between records is stepped exactly to the tracker's deadlines.

    A record the tracker cannot take (settings the clock, the game or the bowls refuse, a
    reading out of range) raises SessionLogError naming its line."""
    tracker = None
    last = 0
    for record in records:
        kind = record.kind
        try:
            if kind == "config":
                tracker = Tracker(record.payload, settle_ms=settle_ms)
                continue
            t = last = record.t_ms
            while True:
                due = tracker.next_deadline()
                if due is None or due >= t:
                    break
                for event in tracker.tick(due):
                    on_event(event)
            events = tracker.take(record)
        except (ValueError, TypeError, OverflowError) as exc:
            raise SessionLogError(record.line, "%s: %s" % (kind, exc))
        for event in events:
            on_event(event)
    if tracker is not None:
        # Let the last scan settle - but invent no time: only what was due within a press's
        # wait of the last record (the clock does not run on after the log ends).
        for _ in range(8):
            due = tracker.next_deadline()
            if due is None or due > last + PRESS_WAIT_MS:
                break
            for event in tracker.tick(due):
                on_event(event)
    return tracker
