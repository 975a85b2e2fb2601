"""Debounced clock keys (Black, White), the pause key and the menu key.

Each key is a pin read with `pin()`; keys are wired to GND with pull-ups, so 0 means pressed
(`active_low`). `poll(now_ms)` is called often (every few ms) with the time passed in, so the
debouncing is tested without sleeping. A key counts as pressed once it has read pressed for
`debounce_ms` continuously, and is reported once per press (edge), which is what a clock key
needs: holding the key down does not press it again, and a key held down while the board starts
is no press until it has been released.
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
        # A key already down when the board starts (held across a reboot, or stuck) is not a
        # press: it must be released first (issue 19; the press before the cut is journaled).
        for i in range(n):
            if self._pins[i]() == self._active:
                self._state[i] = _DOWN

    def poll(self, now_ms):
        """Sample every key; return the number of keys newly pressed (see `take`)."""
        count = 0
        active = self._active
        for i in range(len(self._pins)):
            down = self._pins[i]() == active
            st = self._state[i]
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
                    count += 1
            elif not down:
                # Releases are debounced too: a bounce while held must not re-arm the key.
                if now_ms - self._since[i] >= self._debounce:
                    self._state[i] = _IDLE
            else:
                self._since[i] = now_ms
        return count

    def take(self, index):
        """True once for each debounced press of key `index` (0 B, 1 W, 2 pause, 3 menu)."""
        if self._pressed[index]:
            self._pressed[index] = 0
            return True
        return False

    def is_down(self, index):
        return self._state[index] == _DOWN
