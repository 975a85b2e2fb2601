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
        self.buf = bytearray(MAX)
        self.n = 0

    def readline(self):
        while self.poll.poll(0):
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
