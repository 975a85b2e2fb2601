"""The host link over USB serial (the REPL's stdin/stdout), polled without blocking.

`readline()` returns one complete line (bytes, without the newline) or None; bytes are read
only while `select.poll` says they are there, into a buffer of at most MAX bytes (a longer
line is cut there and refused by protocol.py). `write(data)` sends bytes.

The buffer starts at FIRST bytes and doubles (to MAX) only when a line needs it: a board
playing on its own, or a host sending short commands, never holds MAX bytes of heap for it
(4.1 KB all game long on the Pico; the host's long lines - a calibration - grow it once).
"""

MAX = 4200
FIRST = 256


class UsbSerial:
    def __init__(self, stream_in=None, stream_out=None):
        import select
        import sys

        self.inp = stream_in or sys.stdin.buffer
        self.out = stream_out or sys.stdout.buffer
        self.poll = select.poll()
        self.poll.register(self.inp, select.POLLIN)
        # ipoll (MicroPython) yields into one tuple the poller owns: a look that finds nothing
        # allocates nothing, where poll() makes a new list at every look (~3 KB/s of garbage
        # at what were the link task's 100 looks a second on the Pico, issue 20; 25 now).
        # CPython has poll only.
        self._ipoll = getattr(self.poll, "ipoll", None)
        self.buf = bytearray(FIRST)
        self.n = 0

    def _waiting(self):
        ipoll = self._ipoll
        if ipoll is None:
            return bool(self.poll.poll(0))
        for _ready in ipoll(0):
            return True
        return False

    def readline(self):
        while self._waiting():
            b = self.inp.read(1)
            if not b:
                return None
            if b == b"\n":
                line = bytes(self.buf[: self.n])
                self.n = 0
                return line
            if self.n < MAX:
                if self.n == len(self.buf):
                    self._grow()
                self.buf[self.n] = b[0]
                self.n += 1
        return None

    def _grow(self):
        # The buffer full (n == its length) and the line longer: one twice as long, to MAX.
        buf = bytearray(min(MAX, 2 * self.n))
        buf[: self.n] = self.buf
        self.buf = buf

    def write(self, data):
        self.out.write(data)
