"""A physical Ing bowl on a load cell, simulated for the host (`ingboard simulate`, tests).

One colour's set: 180 stones (or `stones`) with seeded per-stone weights (mean 6.5-7 g, 1996
Rule 12; per-stone spread `spread_pct`), in a bowl on a load cell whose reading is net of the
empty bowl. What the reading shows besides the stones:
- scale noise: Gaussian, `noise_g` standard deviation per reading;
- a constant calibration bias `bias_g` (what no weighing can see);
- settling: taking a stone first presses a hand into the bowl (a fluctuating extra load for a
  few hundred ms), then the bowl rings as a damped oscillation; dropping stones in gives an
  impact spike and the same ringing;
- creep: the cell's reading follows the load's change with a first-order lag, reaching
  `creep_g` (at a full set's load) with a 15-minute time constant, i.e. a few grams per 15
  minutes, and relaxing back as the load goes away;
- zero drift: a slow wander of about `drift_g`.

API: BowlModel(seed, ...); full_weight() (the exact W180, for config `w180_g`); take(now_ms)
-> the stone's weight (the stone leaves after the hand's press); put(n, now_ms) puts back n of
the stones taken (most recent first), or `stones=[weights]` puts given stones (e.g. one from the
other bowl); reading(now_ms) -> grams, times never decreasing. count() is the true number in the
bowl. Times are integer milliseconds.
"""

import math
import random

_CREEP_TAU_MS = 15 * 60 * 1000


class BowlModel:
    def __init__(
        self,
        seed,
        stones=180,
        mean_g=None,
        spread_pct=2.0,
        noise_g=0.3,
        bias_g=0.0,
        creep_g=2.0,
        drift_g=0.2,
        settle=True,
        start_ms=0,
    ):
        if stones <= 0:
            raise ValueError("a set needs stones, not %r" % (stones,))
        if spread_pct < 0 or noise_g < 0 or creep_g < 0 or drift_g < 0:
            raise ValueError("spread, noise, creep and drift must be >= 0")
        self.rng = random.Random(seed)
        rng = self.rng
        self.mean_g = rng.uniform(6.5, 7.0) if mean_g is None else mean_g
        self.stones = []
        for _ in range(stones):
            w = self.mean_g * (1 + rng.gauss(0, spread_pct / 100.0))
            self.stones.append(max(0.5 * self.mean_g, min(1.5 * self.mean_g, w)))
        self.w180 = sum(self.stones)
        self.in_bowl = list(self.stones)
        rng.shuffle(self.in_bowl)
        self.out = []  # stones taken, most recent last
        self.noise_g = noise_g
        self.bias_g = bias_g
        self.creep_g = creep_g
        self.settle = settle
        self.load = self.w180  # what the bowl's stones weigh now
        self.pending = []  # (time, delta): stones leaving after a hand's press
        self.transients = []  # (start, kind, amplitude, duration)
        self.creep_c0 = 0.0
        self.creep_t0 = start_ms
        self.drift_phase = rng.uniform(0, 2 * math.pi)
        self.drift_g = drift_g
        self.last_ms = start_ms

    def full_weight(self):
        """The exact weight of the full set (what enrolment measures), grams."""
        return self.w180

    def count(self):
        return len(self.in_bowl)

    def _creep_target(self):
        return self.creep_g * self.load / self.w180

    def _creep(self, t):
        target = self._creep_target()
        return target + (self.creep_c0 - target) * math.exp(-(t - self.creep_t0) / _CREEP_TAU_MS)

    def _change_load(self, delta, t):
        self.creep_c0 = self._creep(t)
        self.creep_t0 = t
        self.load += delta

    def _apply_pending(self, t):
        keep = []
        for when, delta in self.pending:
            if when <= t:
                self._change_load(delta, when)
            else:
                keep.append((when, delta))
        self.pending = keep

    def take(self, now_ms):
        """A hand takes one stone: returns its weight (grams); IndexError from an empty bowl."""
        if not self.in_bowl:
            raise IndexError("the bowl is empty")
        stone = self.in_bowl.pop()
        self.out.append(stone)
        hand_ms = self.rng.randint(300, 1500) if self.settle else 0
        self.pending.append((now_ms + hand_ms, -stone))
        if self.settle:
            self.transients.append((now_ms, "hand", self.rng.uniform(20, 200), hand_ms))
            self.transients.append((now_ms + hand_ms, "ring", self.rng.uniform(3, 15), 1500))
        return stone

    def put(self, n, now_ms, stones=None):
        """Put back n of the stones taken (most recent first), or the given stone weights."""
        if stones is None:
            if n > len(self.out):
                raise ValueError("only %d stones are out of the bowl" % len(self.out))
            stones = [self.out.pop() for _ in range(n)]
        self.in_bowl.extend(stones)
        self._apply_pending(now_ms)
        self._change_load(sum(stones), now_ms)
        if self.settle:
            self.transients.append((now_ms, "ring", self.rng.uniform(5, 20) * len(stones), 1500))

    def lose(self, stone):
        """A stone taken out is lost (dropped, pocketed): it will never come back by put(n)."""
        self.out.remove(stone)

    def reading(self, now_ms):
        """One load-cell reading, grams net of the empty bowl."""
        if now_ms < self.last_ms:
            raise ValueError("time went backwards: %d < %d" % (now_ms, self.last_ms))
        self.last_ms = now_ms
        self._apply_pending(now_ms)
        rng = self.rng
        value = self.load + self._creep(now_ms) + self.bias_g
        value += self.drift_g * math.sin(now_ms / 600000.0 + self.drift_phase)
        keep = []
        for start, kind, amp, dur in self.transients:
            dt = now_ms - start
            if dt > dur:
                continue
            keep.append((start, kind, amp, dur))
            if dt < 0:
                continue
            if kind == "hand":
                value += amp * (0.6 + 0.4 * math.sin(dt / 40.0)) * rng.uniform(0.7, 1.0)
            else:
                value += amp * math.exp(-dt / 180.0) * math.cos(2 * math.pi * 7 * dt / 1000.0)
        self.transients = keep
        return value + rng.gauss(0, self.noise_g)
