"""A small GTP (Go Text Protocol, version 2) client for a real engine process.

`GtpEngine(argv)` starts the engine with pipes on stdin/stdout; `send("genmove b")` returns the
response text (without the leading "= "). Every failure is a `GtpError`: a "? ..." reply, the
engine exiting (with the tail of its stderr in the message), or no answer within the timeout.

Each command carries a numeric id, and replies whose id does not match are skipped, so a late
answer to a command that timed out can never be taken for the answer to the next one. Reading
happens in a daemon thread (portable: no select() on pipes), which makes timeouts exact.

Vertices: `format_vertex((row, col))` / `parse_vertex("D4", size)` use sgfmill's convention
(row 0 = bottom line, col 0 = left; None = pass), GTP's letters skip "I".
"""

import collections
import os
import queue
import shutil
import subprocess
import threading

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP: no I
_EOF = object()


class GtpError(Exception):
    """The engine refused a command, died, or did not answer in time."""


def find_gnugo():
    """Path of the GNU Go executable (PATH first, then Debian's /usr/games), or None."""
    found = shutil.which("gnugo")
    if found:
        return found
    for folder in ("/usr/games", "/usr/local/games"):
        path = os.path.join(folder, "gnugo")
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def format_vertex(move):
    """(row, col) → "D4"; None → "pass"."""
    if move is None:
        return "pass"
    row, col = move
    return "%s%d" % (COLUMNS[col], row + 1)


def parse_vertex(text, size):
    """ "D4" → (row, col); "pass" → None. ValueError for anything else (including "resign")."""
    word = text.strip().upper()
    if word == "PASS":
        return None
    if len(word) < 2 or word[0] not in COLUMNS or not word[1:].isdigit():
        raise ValueError("not a GTP vertex: %r" % (text,))
    col = COLUMNS.index(word[0])
    row = int(word[1:]) - 1
    if not (0 <= col < size and 0 <= row < size):
        raise ValueError("vertex %r is off a %d×%d board" % (text, size, size))
    return row, col


class GtpEngine:
    """One engine process spoken to over GTP. Use as a context manager or call close()."""

    def __init__(self, argv, timeout=30.0, cwd=None):
        if isinstance(argv, str):
            raise TypeError("argv must be a list of strings, e.g. ['gnugo', '--mode', 'gtp']")
        self.argv = list(argv)
        self.timeout = timeout
        self._next_id = 1
        self._lines = queue.Queue()
        self._stderr = collections.deque(maxlen=20)
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                bufsize=0,
            )
        except OSError as e:
            raise GtpError("cannot start engine %r: %s" % (self.argv[0], e)) from e
        self._threads = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    # -- reader threads -----------------------------------------------------------------------

    def _read_stdout(self):
        for raw in self._proc.stdout:
            self._lines.put(raw.decode("utf-8", "replace"))
        self._lines.put(_EOF)

    def _read_stderr(self):
        for raw in self._proc.stderr:
            self._stderr.append(raw.decode("utf-8", "replace").rstrip())

    # -- protocol -----------------------------------------------------------------------------

    @property
    def alive(self):
        return self._proc.poll() is None

    def _died(self, what):
        try:
            code = self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        tail = " | ".join(line for line in self._stderr if line)
        text = "engine %s exited (code %s) %s" % (self.argv[0], code, what)
        return GtpError(text + (": " + tail if tail else ""))

    def send(self, command, timeout=None):
        """Send one command; return the success response's text (may be multi-line)."""
        command = command.strip()
        if not command or "\n" in command or "\r" in command:
            raise ValueError("a GTP command is one non-empty line, not %r" % (command,))
        if self._proc.poll() is not None:
            raise self._died("before %r" % command)
        ident = self._next_id
        self._next_id += 1
        try:
            self._proc.stdin.write(("%d %s\n" % (ident, command)).encode())
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as e:
            raise self._died("while sending %r" % command) from e
        limit = self.timeout if timeout is None else timeout
        while True:
            status, reply_id, text = self._read_response(command, limit)
            if reply_id == ident:
                break
            # An answer to an earlier command that timed out: drop it.
        if status == "?":
            raise GtpError("engine refused %r: %s" % (command, text or "(no reason given)"))
        return text

    def _read_response(self, command, limit):
        lines = []
        while True:
            try:
                line = self._lines.get(timeout=limit)
            except queue.Empty:
                raise GtpError(
                    "engine gave no answer to %r within %g s" % (command, limit)
                ) from None
            if line is _EOF:
                self._lines.put(_EOF)  # every later read sees the end too
                raise self._died("while answering %r" % command)
            line = line.replace("\r", "").replace("\t", " ").rstrip("\n")
            if not lines:
                if not line.strip():
                    continue  # blank lines between responses
                if line[0] not in "=?":
                    continue  # stray output before a response (GTP 2: ignore it)
            elif not line.strip():
                break  # an empty line ends the response
            lines.append(line)
        head = lines[0]
        status = head[0]
        rest = head[1:]
        digits = len(rest) - len(rest.lstrip("0123456789"))
        reply_id = int(rest[:digits]) if digits else None
        first = rest[digits:].strip()
        text = "\n".join([first] + lines[1:]).strip() if len(lines) > 1 else first
        return status, reply_id, text

    # -- lifetime -----------------------------------------------------------------------------

    def close(self, timeout=5.0):
        """Ask the engine to quit; kill it if it does not exit in time. Idempotent."""
        proc = self._proc
        if proc.poll() is None:
            try:
                self.send("quit", timeout=timeout)
            except GtpError:
                pass
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        self._release()

    def _release(self):
        # The process has exited: its pipes reach EOF, the readers finish, then close them.
        for thread in self._threads:
            thread.join(timeout=2)
        for stream in (self._proc.stdout, self._proc.stderr):
            if not stream.closed:
                stream.close()

    def kill(self):
        """Kill the engine at once (tests; a hung engine)."""
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait()
        try:
            self._proc.stdin.close()
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.poll() is None:
            proc.kill()
