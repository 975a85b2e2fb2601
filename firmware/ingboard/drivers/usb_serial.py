"""The host link over USB serial (the REPL's stdin/stdout), polled without blocking.

`readline()` returns one complete line (bytes, without the newline) or None; bytes are read
only while `select.poll` says they are there, a byte at a time (the stream's readinto: nothing
allocated per byte) into a buffer of MAX bytes allocated once (a longer line is cut there and
refused by protocol.py). `write(data)` sends bytes.
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
        # at the link task's 100 looks a second on the Pico, issue 20). CPython has poll only.
        self._ipoll = getattr(self.poll, "ipoll", None)
        self.buf = bytearray(MAX)
        self.n = 0
        # Each byte is read into this one (readinto): read(1) made a bytes object of every
        # byte of every host command.
        self.one = bytearray(1)

    def _waiting(self):
        ipoll = self._ipoll
        if ipoll is None:
            return bool(self.poll.poll(0))
        for _ready in ipoll(0):
            return True
        return False

    def readline(self):
        one = self.one
        while self._waiting():
            if not self.inp.readinto(one):
                return None
            if one[0] == 10:  # b"\n"
                line = bytes(self.buf[: self.n])
                self.n = 0
                return line
            if self.n < MAX:
                self.buf[self.n] = one[0]
                self.n += 1
        return None

    def write(self, data):
        self.out.write(data)
