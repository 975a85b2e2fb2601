"""Helpers for the journal tests (shared: CPython and MicroPython): play session-log records
through a Tracker with a JournalWriter, and the state a recovery must give back."""

from ingboard.records.journal import JournalWriter
from ingboard.tracking.tracker import Tracker


class Sink:
    """A file stand-in: collects the bytes written."""

    def __init__(self):
        self.parts = []
        self.size = 0

    def write(self, data):
        self.parts.append(bytes(data))
        self.size += len(data)

    def data(self):
        return b"".join(self.parts)


def fingerprint(tracker, t):
    """Everything a resumed game must have as the original had it at t."""
    game = tracker.game
    clock = tracker.clock
    return {
        "plies": [(p.color, p.point, p.kind, p.captured) for p in game.plies],
        "cells": bytes(game.board.cells),
        "to_play": game.to_play,
        "phase": game.phase,
        "result": game.result,
        "reason": game.end_reason,
        "dead": list(game.dead),
        "prisoners": list(game.prisoners),
        "passes": game.consecutive_passes,
        "clock": clock.snapshot(),
        "clock_state": clock.state(t),
        "penalty": (clock.penalty(1), clock.penalty(2)),
        "before": [list(s) for s in tracker.clock_before],
        "props": [None if p is None else [tuple(x) for x in p] for p in tracker.ply_props],
        "awaiting": tracker.awaiting_press,
        "owed": [bool(x) for x in tracker.press_owed],
        "leaving": sorted(tracker.leaving.items()),
        "bowls": tracker.bowls.snapshot(),
        "counted": tracker.counted,
        "checked": tracker.checked_before,
        "started": tracker.started,
        "plan": tracker.plan,
        "fill_target": tracker.fill_target,
        "end": (tracker.filled, tracker.put_away, tracker.empty_since),
        "state": tracker.state(),
    }


def play(records, on_sync=None, mark_ms=1000):
    """Feed records (session.Record) to a Tracker, stepping its deadlines like track(); the
    journal is synced after every call. on_sync(tracker, t, journal_bytes_so_far) after each
    record written. Returns (tracker, journal bytes, events)."""
    sink = Sink()
    writer = JournalWriter(sink, mark_ms=mark_ms)
    tracker = None
    events = []

    def sync(t, evs, button=None):
        events.extend(evs)
        if writer.sync(tracker, t, evs, button) and on_sync is not None:
            on_sync(tracker, t, sink.size)

    for record in records:
        if record.kind == "config":
            tracker = Tracker(record.payload)
            writer.start(tracker, record.t_ms)
            if on_sync is not None:
                on_sync(tracker, record.t_ms, sink.size)
            continue
        t = record.t_ms
        while True:
            due = tracker.next_deadline()
            if due is None or due >= t:
                break
            sync(due, tracker.tick(due))
        # Time marks while nothing happens (the app's clock task does this every second).
        while writer.last_t + mark_ms < t and tracker.clock.running():
            at = writer.last_t + mark_ms
            sync(at, tracker.tick(at))
        sync(t, tracker.take(record), record.payload if record.kind == "button" else None)
    return tracker, sink.data(), events
