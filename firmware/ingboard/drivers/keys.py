"""Debounced clock keys (Black, White), the pause key and the menu key.

Each key is a pin read with `pin()`; keys are wired to GND with pull-ups, so 0 means pressed
(`active_low`). `poll(now_ms)` is called often (every few ms) with the time passed in, so the
debouncing is tested without sleeping. A key counts as pressed once it has read pressed for
`debounce_ms` continuously, and is reported once per press (edge), which is what a clock key
needs: holding the key down does not press it again, and a key held down while the board starts
is no press until it has been released.

A press shorter than the gap between two polls (the app busy for a moment: a capture, a
journal write, a display redraw) is not lost where the pins have edge interrupts (`Pin.irq`,
the board): each edge is timed, and a whole press the polls never saw - down, then up again
at least `debounce_ms` later - is counted at the next poll. A press the polls saw is theirs.

Presses counted at the same poll are handed over in the order they were made (`taken`): when
the app was busy for a while, Black's press for their move and White's press for the move
before it may both be counted at one poll, and taken in key order White's would come after
Black's - a press for White's next move, a pass nobody made (the twin's long game, issue 20).
"""

from micropython import const

_IDLE = const(0)
_PENDING = const(1)  # raw level changed, waiting for it to hold for debounce_ms
_DOWN = const(2)

NAMES = ("B", "W", "pause", "menu")


class Keys:
    def __init__(self, pins, debounce_ms=20, active_low=True):
        self._pins = list(pins)
        n = len(self._pins)
        self.count = n
        self._active = 0 if active_low else 1
        self._debounce = debounce_ms
        self._state = bytearray(n)
        self._since = [0] * n
        self._pressed = bytearray(n)  # latched edges not yet taken by the caller
        self._at = [0] * n  # when each latched press was made (poll time)
        # A key already down when the board starts (held across a reboot, or stuck) is not a
        # press: it must be released first (issue 19; the press before the cut is journaled).
        for i in range(n):
            if self._pins[i]() == self._active:
                self._state[i] = _DOWN
        # Edge-timed presses (see the module docstring): when each key went down, whether the
        # polls have yet to see that press, and whole presses only the edges saw.
        self._fell = [0] * n
        self._falling = bytearray(n)
        self._missed = bytearray(n)
        self._ticks = None
        # Where every key has its edges, a poll with every key at rest and no edge since the
        # last poll that read the pins has nothing to read (see poll): `edges` counts the
        # edges' handlers run, `read_at` is its value at the last reading, `rest` whether that
        # reading left every key at rest (`rest and read_at == edges`: the app's key task
        # makes poll's first test itself, to skip the clock's reading too). Without edges (a
        # port or pin without Pin.irq) every poll reads the pins.
        self.edges = 0
        self.read_at = -1
        self.rest = 0
        timed = 0
        for i in range(n):
            pin = self._pins[i]
            if hasattr(pin, "irq") and hasattr(pin, "IRQ_FALLING"):
                import time

                self._ticks = time
                pin.irq(self._edge_handler(i), pin.IRQ_FALLING | pin.IRQ_RISING)
                timed += 1
        self._all_timed = timed == n

    def _edge_handler(self, i):
        def edge(_pin):
            self._edge(i)

        return edge

    def _edge(self, i):
        # The handler is scheduled (a soft IRQ): it may run late, after the polls have seen
        # and counted this press (state _DOWN). Such a press is the polls' alone - its edges
        # must never count it again (a phantom press switches the other player's clock).
        self.edges += 1  # the next poll reads the pins (poll)
        now = self._ticks.ticks_ms()
        if self._state[i] == _DOWN:
            self._falling[i] = 0
        elif self._pins[i]() == self._active:
            self._fell[i] = now
            self._falling[i] = 1
        elif self._falling[i]:
            self._falling[i] = 0
            if self._ticks.ticks_diff(now, self._fell[i]) >= self._debounce:
                self._missed[i] = 1

    def poll(self, now_ms):
        """Sample every key; return the number of keys newly pressed (see `taken`)."""
        # A key at rest (up, idle, no press timed by its edges) needs nothing: the common case,
        # 50 polls a second, kept to a frame of at most 11 words, which MicroPython puts on the
        # C stack - a larger one is allocated on the heap at every call (py/objfun.c), a search
        # of the app's fragmented heap that held each poll 0.3-0.8 ms on the RP2040 twin and
        # brought the heap's threshold collections (22 ms) into the keys' time.
        # Where every key's edges are timed, a poll after one that found every key at rest,
        # with no edge since, has nothing to read: a key can only have gone down with an edge,
        # whose handler runs before the next poll that reads (the common case of an idle
        # board, 50 polls a second: three attribute loads and a compare).
        if self.rest and self.read_at == self.edges:
            return 0
        return self._read_keys(now_ms)

    def _read_keys(self, now_ms):
        # Every key sampled; the edges' count taken first, so that an edge while reading
        # makes the next poll read again.
        if self._all_timed:
            self.read_at = self.edges
        count = 0
        self.rest = 1
        for i in range(len(self._pins)):
            if self._pins[i]() == self._active or self._state[i] or self._missed[i]:
                count += self._step(i, now_ms)
                if self._state[i] or self._missed[i]:
                    self.rest = 0
        return count

    def _step(self, i, now_ms):
        # One key that read down, or is not at rest: sampled again, 1 if newly pressed.
        down = self._pins[i]() == self._active
        st = self._state[i]
        if st != _DOWN and self._missed[i] and not down:
            # A whole press between two polls (or read down once, not long enough for the
            # polls to count it), timed by its edges.
            self._state[i] = _IDLE
            self._missed[i] = 0
            self._pressed[i] = 1
            ticks = self._ticks
            self._at[i] = now_ms - ticks.ticks_diff(ticks.ticks_ms(), self._fell[i])
            return 1
        if st == _IDLE:
            if down:
                self._state[i] = _PENDING
                self._since[i] = now_ms
        elif st == _PENDING:
            if not down:
                self._state[i] = _IDLE
            elif now_ms - self._since[i] >= self._debounce:
                self._state[i] = _DOWN
                self._pressed[i] = 1
                self._at[i] = self._since[i]  # first read down
                self._falling[i] = 0  # the polls saw this press: not the edges' to count
                self._missed[i] = 0
                return 1
        elif not down:
            # Releases are debounced too: a bounce while held must not re-arm the key.
            if now_ms - self._since[i] >= self._debounce:
                self._state[i] = _IDLE
        else:
            self._since[i] = now_ms
        return 0

    def taken(self):
        """The keys pressed since the last call (indices, each press once), in the order the
        presses were made."""
        out = []
        for i in range(len(self._pins)):
            if self._pressed[i]:
                self._pressed[i] = 0
                out.append(i)
        if len(out) > 1:
            at = self._at
            out.sort(key=lambda i: at[i])
        return out

    def is_down(self, index):
        return self._state[index] == _DOWN
