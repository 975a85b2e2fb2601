"""The host link over USB serial (the REPL's stdin/stdout), polled without blocking.

`readline()` returns one complete line (bytes, without the newline) or None; bytes are read
only while `select.poll` says they are there, into a buffer of MAX bytes allocated once (a
longer line is cut there and refused by protocol.py). `write(data)` sends bytes.
"""

MAX = 4200


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
        self.buf = bytearray(MAX)
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
                self.buf[self.n] = b[0]
                self.n += 1
        return None

    def write(self, data):
        self.out.write(data)
