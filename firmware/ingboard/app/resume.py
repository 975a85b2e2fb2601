"""A game resumed at boot from the journal on flash (after a power cut), into the app: its
tracker (records/journal_replay.recover, or the session log's game when the journal is corrupted
and the log holds more: issue 19), the session log continued, the journal compacted.

Apart from app.py because it runs once, at boot, and only when a journal is there: App loads it
then and drops it after (issue 17: on the stock Pico image the code of .mpy files is heap).
"""

from ingboard.records import journal_replay
from ingboard.records.journal import JournalWriter
from ingboard.records.session import SessionWriter


def resume(app, reader):
    """Resume the game of the journal (`reader`: its file, closed here) in `app`: its tracker,
    session log and journal as the app keeps them. False when the journal holds no game and
    the session log none either."""
    numbers = app.store.numbers()
    number = numbers[-1] if numbers else app.store.next_number()
    try:
        try:
            tracker, info = journal_replay.recover(reader)
        finally:
            reader.close()
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        app.warn("journal unreadable: %s" % exc)
        tracker, info = None, {"t": 0, "records": 0, "corrupt": 0, "lost": 0}
    if tracker is None or info["corrupt"] is not None:
        # Not a torn tail: a record in the middle (or the first) is corrupted. Say so, and
        # take the game from the session log on flash when it holds more (issue 19).
        if tracker is not None:
            app.warn(
                "journal record at byte %d corrupted, %d later records unreadable"
                % (info["corrupt"], info["lost"])
            )
        rebuilt = _from_session_log(app, number, tracker)
        if rebuilt is None and tracker is None:
            return False
        if rebuilt is not None:
            tracker, info = rebuilt
    app.number = number
    app.tracker = tracker
    tracker.checkpoint = app.scan_if_due
    app.store.trim_session(app.number)
    base = max(info["t"], app.store.last_session_time(app.number))
    app._restart_time(base)
    if app.store.session_started(app.number):
        app.log_file = app.store.open_session(app.number, append=True)
    else:
        # The power went before the log's header and config reached flash (the journal's
        # start record did): write them anew, so the log stays a session log.
        app.log_file = app.store.open_session(app.number)
        SessionWriter(app.log_file).config(0, tracker.config)
    app.log_file.write("# resumed from the journal after a restart (%d records)\n" % (
        info["records"]))  # fmt: skip
    app.log = None  # continued with Record lines (the header and config are written)
    writer = JournalWriter(None, app.mark_ms)
    # Compacted from the file into the new one beside it, then switched (as open_journal
    # does with bytes): one record at a time in memory (issue 20).
    reader = app.store.journal_reader()
    out = app.store.new_journal()
    try:
        records, size, last_t = journal_replay.compact(reader, out)
    finally:
        reader.close()
        out.close()
    app.compacted = size
    app.journal_file = app.store.commit_journal()
    writer.resume_at(tracker, records, size, last_t)
    writer.out = app.journal_file
    app.journal = writer
    app.saved = False
    app.warn("game %04d resumed at move %d" % (app.number, len(tracker.game.plies)))
    if tracker.game.phase == "ended":
        # The power may have gone between the journal's end record and the SGF.
        app.saved = app.store.has_sgf(app.number)
        app._after(base, [], None)
    return True


def _from_session_log(app, number, tracker):
    """(tracker, info) of game `number` rebuilt from its session log when that holds more
    than `tracker` (the journal's game, or None), else None. The rebuilt journal is written to
    flash beside the corrupted one and replaces it (a long game's is ~90 KB: in memory it
    raised MemoryError at boot on the twin, and the board could not start); a cut before the
    switch leaves the old one, and the next boot rebuilds again."""
    out = app.store.new_journal()
    try:
        try:
            rebuilt, info = journal_replay.rebuild(
                app.store.session_lines(number), out, app.mark_ms
            )
        finally:
            out.close()
    except (OSError, ValueError, TypeError, KeyError, IndexError) as exc:
        app.warn("session log of game %04d unreadable: %s" % (number, exc))
        app.store.drop_new_journal()
        return None
    if rebuilt is None or (
        tracker is not None and len(rebuilt.game.plies) < len(tracker.game.plies)
    ):
        app.store.drop_new_journal()
        return None
    app.store.commit_journal().close()
    app.warn("game %04d rebuilt from its session log (%d records)" % (number, info["records"]))
    return rebuilt, info
