"""The board's records on flash: each game's SGF and session log, size-bounded, and the journal.

Layout (storage_paths.py): game n's session log is written to `SESSIONS_DIR/nnnn.log.part` while
it is played and renamed to `nnnn.log` when the game ends; its SGF is written as
`GAMES_DIR/nnnn.sgf.part` and renamed to `nnnn.sgf`. `ingboard pull` copies only finished files.
The journal of the game in progress is `JOURNAL_DIR/game.jnl` (records/journal.py).

Bound: finished files together stay under `limit` bytes; when a new game would go over, the
oldest games (lowest numbers, SGF and log together) are deleted first and named in the returned
warnings, so the app can tell the host. `root` prefixes every path (a temporary directory in
tests; "" on the board, whose `/` is the flash file system).
"""

import os

from ingboard import storage_paths as paths

LIMIT = 512 * 1024
JOURNAL_NAME = "game.jnl"
_CHUNK = 512
# Pieces of a record between two checkpoints: each piece (a ply's node, its clock text) is
# a ms or two of the RP2040, four together with a collection held up scans by 20-50 ms while
# a 600-ply game's SGF was written (twin, issue 20); a checkpoint is ~40 us.
_PIECES = 1


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return 0


def settle(path, tmp):
    """Finish or undo a replacement of `path` by `tmp` (written whole and closed, then the old
    file removed, then renamed) that a power cut interrupted. Recovery considers both names:
    only `tmp` left means the cut came after the old file was removed - `tmp` is whole and
    becomes `path`; both left means the cut came before - the old file holds, `tmp` goes."""
    if _exists(tmp):
        if _exists(path):
            os.remove(tmp)
        else:
            os.rename(tmp, path)


def _nothing():
    pass


def _replace(path, tmp, checkpoint=_nothing):
    # No rename over an existing file on every port's file system: remove, then rename. A cut
    # between the two leaves only `tmp`, which settle() finishes. `checkpoint()` between them
    # (each a file-system step: a piece of its own, RecordsStore.save).
    if _exists(path):
        os.remove(path)
        checkpoint()
    os.rename(tmp, path)


def _mkdir(path):
    if not _exists(path):
        os.mkdir(path)


class ChunkedWrite:
    """write(str) in pieces, passed on to `sink` in writes of about _CHUNK characters (fewer
    file-system calls, and never one block the size of the record), calling `checkpoint()`
    every _PIECES pieces (each); flush() writes the rest. The text written is the same."""

    def __init__(self, sink, checkpoint=None):
        self.sink = sink
        self.checkpoint = checkpoint
        self.pieces = []
        self.size = 0
        self.count = 0

    def write(self, text):
        self.pieces.append(text)
        self.size += len(text)
        if self.size >= _CHUNK:
            self.flush()
        self.count += 1
        if self.checkpoint is not None and self.count % _PIECES == 0:
            self.checkpoint()

    def flush(self):
        if self.pieces:
            self.sink("".join(self.pieces))
            self.pieces = []
            self.size = 0


class RecordsStore:
    """Finished games and session logs on flash, with a size bound (see the docstring)."""

    def __init__(self, root="", limit=LIMIT):
        self.root = root
        self.limit = limit
        self.games = root + paths.GAMES_DIR
        self.sessions = root + paths.SESSIONS_DIR
        self.journal_dir = root + paths.JOURNAL_DIR
        if root:
            _mkdir(root)
        for d in (self.games, self.sessions, self.journal_dir):
            _mkdir(d)
        self.journal_path = self.journal_dir + "/" + JOURNAL_NAME

    # -- numbering --------------------------------------------------------------------------

    def numbers(self):
        """Game numbers that have a file (finished or in progress), ascending."""
        found = []
        for d in (self.games, self.sessions):
            for name in os.listdir(d):
                head = name.split(".")[0]
                if head.isdigit() and int(head) not in found:
                    found.append(int(head))
        found.sort()
        return found

    def next_number(self):
        found = self.numbers()
        return found[-1] + 1 if found else 1

    def session_part(self, n):
        return "%s/%04d%s%s" % (self.sessions, n, paths.SESSION_SUFFIX, paths.PART_SUFFIX)

    # -- one game -----------------------------------------------------------------------------

    def open_session(self, n, append=False):
        """The session log file of game n, being written (text)."""
        if append:
            settle(self.session_part(n), self.session_part(n) + ".tmp")
        return open(self.session_part(n), "a" if append else "w")

    def session_started(self, n):
        """Whether game n's session log in progress holds its header and config lines whole."""
        try:
            with open(self.session_part(n), "rb") as f:
                return f.readline().endswith(b"\n") and f.readline().endswith(b"\n")
        except OSError:
            return False

    def last_session_time(self, n):
        """t_ms of the last whole line of game n's session log in progress (0 if none)."""
        path = self.session_part(n)
        settle(path, path + ".tmp")
        size = _size(path)
        if not size:
            return 0
        with open(path, "rb") as f:
            f.seek(max(0, size - _CHUNK))
            tail = f.read()
        lines = tail.split(b"\n")[:-1]  # the part after the last newline may be torn
        for line in reversed(lines):
            try:
                return int(line.split(b" ")[0])
            except ValueError:
                continue
        return 0

    def trim_session(self, n):
        """Drop a torn last line of game n's session log (after a power cut)."""
        path = self.session_part(n)
        settle(path, path + ".tmp")
        size = _size(path)
        if not size:
            return
        with open(path, "rb") as f:
            f.seek(max(0, size - _CHUNK))
            start = f.tell()
            tail = f.read()
        cut = tail.rfind(b"\n") + 1
        if start + cut == size:
            return
        tmp = path + ".tmp"
        with open(path, "rb") as src, open(tmp, "wb") as dst:
            left = start + cut
            while left > 0:
                chunk = src.read(min(_CHUNK, left))
                if not chunk:
                    break
                dst.write(chunk)
                left -= len(chunk)
        _replace(path, tmp)

    def save_sgf(self, n, sgf, checkpoint=None):
        """Game n is over: its SGF is written (a finished file). `sgf`: the text, or a function
        given write(str) that writes it piece by piece (the board's way: a long game's SGF is
        never one block of memory, issue 20), gathered into writes of about _CHUNK bytes, with
        `checkpoint()` called every few pieces (the app's scan checkpoint: a 600-ply SGF takes
        ~1 s of the RP2040). Returns the warnings of the size bound (a list of texts)."""
        final = "%s/%04d%s" % (self.games, n, paths.GAME_SUFFIX)
        part = final + paths.PART_SUFFIX
        with open(part, "w") as f:
            if isinstance(sgf, str):
                f.write(sgf)
            else:
                out = ChunkedWrite(f.write, checkpoint)
                sgf(out.write)
                out.flush()
                if checkpoint is not None:
                    checkpoint()  # the last write, then the file closed: two slices
        cp = checkpoint or _nothing
        cp()  # each file-system step below takes ms to tens of ms on the Pico: one a piece
        need = _size(part)
        cp()
        need += _size(self.session_part(n))
        cp()
        warnings = self._make_room(need, n, cp)
        cp()
        _replace(final, part, cp)
        return warnings

    def has_sgf(self, n):
        """True when game n's SGF is written (a finished file)."""
        return _exists("%s/%04d%s" % (self.games, n, paths.GAME_SUFFIX))

    def close_session(self, n):
        """Game n's session log is complete (the next game starts): it becomes finished."""
        log = self.session_part(n)
        if _exists(log):
            os.rename(log, log[: -len(paths.PART_SUFFIX)])

    def _make_room(self, need, keep, checkpoint=None):
        warnings = []
        cp = checkpoint or _nothing
        files = self.finished(cp)
        total = need
        for entry in files:
            total += entry["bytes"]
        if total <= self.limit:
            return warnings  # (the usual case: no listing of the numbers)
        cp()
        for n in self.numbers():
            if total <= self.limit or n == keep:
                break
            for entry in files:
                if entry["number"] == n:
                    os.remove(self._dir(entry["name"]) + "/" + entry["name"])
                    total -= entry["bytes"]
                    cp()
            warnings.append("storage full: game %04d deleted (oldest first)" % n)
        return warnings

    # -- listing and reading ------------------------------------------------------------------

    def _dir(self, name):
        return self.games if name.endswith(paths.GAME_SUFFIX) else self.sessions

    def finished(self, checkpoint=None):
        """[{"name", "number", "bytes"}] of every finished SGF and session log, by number.
        `checkpoint()` after each file looked at (the app's scan checkpoint)."""
        cp = checkpoint or _nothing
        out = []
        for d, suffix in ((self.games, paths.GAME_SUFFIX), (self.sessions, paths.SESSION_SUFFIX)):
            for name in os.listdir(d):
                cp()
                head = name[: -len(suffix)]
                if name.endswith(suffix) and head.isdigit():
                    out.append({"name": name, "number": int(head), "bytes": _size(d + "/" + name)})
        out.sort(key=lambda e: (e["number"], e["name"]))
        return out

    def read(self, name, offset, count):
        """Up to `count` bytes of a finished file from `offset`; ValueError for an unknown name
        or a bad range."""
        names = [e["name"] for e in self.finished()]
        if name not in names:
            raise ValueError("no finished game file %r" % (name,))
        path = self._dir(name) + "/" + name
        size = _size(path)
        if offset < 0 or offset > size or count <= 0:
            raise ValueError("offset must be 0..%d and count > 0" % size)
        with open(path, "rb") as f:
            f.seek(offset)
            return f.read(count), size

    # -- the journal --------------------------------------------------------------------------

    def session_lines(self, n):
        """The lines of game n's session log in progress (a generator: the log is read a line
        at a time, never whole), for rebuilding the game from it."""
        path = self.session_part(n)
        settle(path, path + ".tmp")
        if not _exists(path):
            return
        with open(path) as f:
            for line in f:
                yield line

    def journal_bytes(self):
        settle(self.journal_path, self.journal_path + ".new")
        if not _exists(self.journal_path):
            return b""
        with open(self.journal_path, "rb") as f:
            return f.read()

    def recovery_reader(self):
        """The journal at boot, opened for reading (binary) after settling a replacement a cut
        interrupted; None when there is none or it is empty. Read record by record (a long
        game's journal is ~100 KB: never one block of the heap, issue 20)."""
        settle(self.journal_path, self.journal_path + ".new")
        if not _size(self.journal_path):
            return None
        return open(self.journal_path, "rb")

    def open_journal(self, data=None):
        """The journal for appending; with `data`, the file is first replaced by it (atomic:
        written beside it, then renamed over it)."""
        if data is not None:
            tmp = self.journal_path + ".new"
            with open(tmp, "wb") as f:
                f.write(data)
            _replace(self.journal_path, tmp)
        return open(self.journal_path, "ab")

    def journal_reader(self):
        """The journal opened for reading (binary), or None when there is none: the app
        compacts it record by record, never holding it whole (issue 20)."""
        if not _exists(self.journal_path):
            return None
        return open(self.journal_path, "rb")

    def new_journal(self):
        """A new journal written beside the current one (binary, `.new`); commit_journal()
        puts it in the current one's place (a cut before that leaves the current one, and
        settle() drops the partial new one)."""
        return open(self.journal_path + ".new", "wb")

    def commit_journal(self):
        """The new journal replaces the current one; returns it opened for appending."""
        _replace(self.journal_path, self.journal_path + ".new")
        return open(self.journal_path, "ab")

    def reopen_journal(self):
        """After a replacement that stopped part way (an error, not a cut): the journal as
        recovery would find it (settle), opened for appending."""
        settle(self.journal_path, self.journal_path + ".new")
        return open(self.journal_path, "ab")

    def drop_new_journal(self):
        """The new journal beside the current one is not wanted (a rebuild not taken)."""
        if _exists(self.journal_path + ".new"):
            os.remove(self.journal_path + ".new")

    def clear_journal(self):
        for path in (self.journal_path, self.journal_path + ".new"):
            if _exists(path):
                os.remove(path)
