"""Buzzer: plays short tone patterns on a PWM pin, driven by time passed in.

A pattern is a flat tuple of (frequency_hz, duration_ms) pairs; frequency 0 is a rest. The
player never sleeps: `play(pattern, now_ms)` starts it and `update(now_ms)`, called from the
app's loop, moves on when a step's time is up. The PWM object needs only `freq(hz)` and
`duty_u16(value)`.
"""

from micropython import const

_DUTY_ON = const(32768)  # 50 %: loudest square wave for a passive piezo

# Patterns used by the app (frequency, duration) pairs.
PRESS = (2000, 30)
ALERT = (1000, 120, 0, 80, 1000, 120)
PERIOD = (1500, 200, 0, 100, 1500, 200, 0, 100, 1500, 200)
TIME_OUT = (800, 600)


class Buzzer:
    def __init__(self, pwm):
        self._pwm = pwm
        # The pattern playing, () when silent (the app's key task updates only while one plays).
        self.pattern = ()
        self._step = 0
        self._until = 0
        pwm.duty_u16(0)

    def play(self, pattern, now_ms):
        if len(pattern) % 2:
            raise ValueError("a pattern is (frequency, duration) pairs")
        self.pattern = pattern
        self._step = 0
        self._start_step(now_ms)

    def _start_step(self, now_ms):
        p = self.pattern
        if self._step >= len(p):
            self._pwm.duty_u16(0)
            self.pattern = ()
            return
        hz = p[self._step]
        if hz:
            self._pwm.freq(hz)
            self._pwm.duty_u16(_DUTY_ON)
        else:
            self._pwm.duty_u16(0)
        self._until = now_ms + p[self._step + 1]

    def update(self, now_ms):
        """Advance the pattern; return True while something is playing."""
        while self.pattern and now_ms - self._until >= 0:
            start = self._until
            self._step += 2
            self._start_step(start)
        return bool(self.pattern)

    def stop(self):
        self.pattern = ()
        self._pwm.duty_u16(0)
