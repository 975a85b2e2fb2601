"""A game's plies kept as bytes: a 600-ply game holds no object per ply (issue 20).

Why: as Python objects every ply of a game is a namedtuple (32 bytes on the Pico) plus a
tuple of the stones it captured, made one at a time all game long and kept to its end. On the
twin a 600-ply game left them, with the other per-ply objects, scattered through the whole heap
(~110 bytes a ply): at the count 22 KB were free and no block was larger than 3.9 KB. Here a
ply is 8 bytes of a record chunk and its captured or self-removed stones 2 bytes each of a
stone chunk; both kinds of chunk are bytearrays of CHUNK_BYTES allocated once, kept when the
game is cut back (a retraction), so the store never needs a larger block and never churns.

A record: the point + 1 (0 for a pass; u16), the colour, the kind, the index of its first
stone in the stone chunks (u16), how many of its stones it captured (u16); the rest up to the
next ply's first stone it removed itself. Reading a ply makes its `Ply` afresh (garbage at
once); the last one is kept, as that is the one read most (plies[-1] at every input).

The interface is what the game and its readers use of a list: append, len, truth, index
(negative too), slices (a new list), iteration (both ways), `del s[n:]` (truncate), ==.
"""

try:
    from micropython import const
except ImportError:  # CPython: const() is only a marker there

    def const(x):
        return x


CHUNK_BYTES = const(512)
_REC = const(8)  # bytes a ply
_PER_CHUNK = const(64)  # plies a record chunk (CHUNK_BYTES // _REC)
_STONES = const(256)  # stones a stone chunk (CHUNK_BYTES // 2)
MAX_STONES = const(0xFFFF)  # captured + self-removed stones in one game (u16 index)
_NONE = ()


class PlyStore:
    """The plies of a game as bytes (see the module docstring); `make(color, point, captured,
    self_removed, kind)` builds a ply (game.Ply), `pass_point` is the point of a pass."""

    def __init__(self, make, pass_point):
        self.make = make
        self.pass_point = pass_point
        self.records = []  # bytearray chunks of _PER_CHUNK records
        self.stones = []  # bytearray chunks of _STONES u16 points
        self.n = 0
        self.stone_n = 0
        self._last = None  # the Ply of index n - 1, once made

    # -- writing

    def append(self, ply):
        captured = ply.captured
        removed = ply.self_removed
        taken = len(captured)
        count = taken + len(removed) if removed else taken
        start = self.stone_n
        if count and start + count > MAX_STONES:
            raise ValueError("a game of more than %d captured stones" % MAX_STONES)
        n = self.n
        k = n // _PER_CHUNK
        records = self.records
        if k == len(records):
            records.append(bytearray(CHUNK_BYTES))
        rec = records[k]
        at = (n % _PER_CHUNK) * _REC
        point = 0 if ply.point == self.pass_point else ply.point + 1
        rec[at] = point & 0xFF
        rec[at + 1] = point >> 8
        rec[at + 2] = ply.color
        rec[at + 3] = ply.kind
        rec[at + 4] = start & 0xFF
        rec[at + 5] = start >> 8
        rec[at + 6] = taken & 0xFF
        rec[at + 7] = taken >> 8
        if count:  # a quiet move (the usual one) has no stones to keep (bench: rules)
            for q in captured:
                self._stone(q)
            for q in removed:
                self._stone(q)
        self.n = n + 1
        self._last = ply

    def _stone(self, q):
        i = self.stone_n
        k = i // _STONES
        if k == len(self.stones):
            self.stones.append(bytearray(CHUNK_BYTES))
        chunk = self.stones[k]
        at = (i % _STONES) * 2
        chunk[at] = q & 0xFF
        chunk[at + 1] = q >> 8
        self.stone_n = i + 1

    def truncate(self, n):
        """Keep the first n plies (the chunks stay allocated for what comes next)."""
        if n < self.n:
            self.stone_n = self._start(n) if n >= 0 else 0
            self.n = max(n, 0)
            self._last = None

    def __delitem__(self, i):
        if not isinstance(i, slice) or i.stop is not None or (i.step or 1) != 1:
            raise TypeError("only del s[n:] (truncation) is supported")
        start = i.start or 0
        if start < 0:
            start = max(0, self.n + start)
        self.truncate(start)

    # -- reading

    def __len__(self):
        return self.n

    def _start(self, i):
        rec = self.records[i // _PER_CHUNK]
        at = (i % _PER_CHUNK) * _REC
        return rec[at + 4] | (rec[at + 5] << 8)

    def _points(self, start, stop):
        out = []
        stones = self.stones
        for i in range(start, stop):
            chunk = stones[i // _STONES]
            at = (i % _STONES) * 2
            out.append(chunk[at] | (chunk[at + 1] << 8))
        return tuple(out)

    def _make(self, i):
        rec = self.records[i // _PER_CHUNK]
        at = (i % _PER_CHUNK) * _REC
        point = (rec[at] | (rec[at + 1] << 8)) - 1
        start = rec[at + 4] | (rec[at + 5] << 8)
        ncap = rec[at + 6] | (rec[at + 7] << 8)
        stop = self._start(i + 1) if i + 1 < self.n else self.stone_n
        captured = self._points(start, start + ncap) if ncap else _NONE
        removed = self._points(start + ncap, stop) if stop > start + ncap else _NONE
        return self.make(
            rec[at + 2],
            self.pass_point if point < 0 else point,
            captured,
            removed,
            rec[at + 3],
        )

    def __getitem__(self, i):
        if isinstance(i, slice):
            start, stop, step = _indices(i, self.n)
            return [self[k] for k in range(start, stop, step)]
        if i < 0:
            i += self.n
        if i < 0 or i >= self.n:
            raise IndexError("index out of range")
        if i == self.n - 1:
            if self._last is None:
                self._last = self._make(i)
            return self._last
        return self._make(i)

    def __iter__(self):
        for i in range(self.n):
            yield self[i]

    def __reversed__(self):
        for i in range(self.n - 1, -1, -1):
            yield self[i]

    def __eq__(self, other):
        return list(self) == list(other)

    def __repr__(self):
        return "PlyStore(%r)" % (list(self),)


def _indices(s, n):
    # slice.indices() for ports without it.
    if hasattr(s, "indices"):
        return s.indices(n)
    step = s.step or 1
    start, stop = s.start, s.stop
    if start is None:
        start = 0 if step > 0 else n - 1
    elif start < 0:
        start = max(0, start + n)
    if stop is None:
        stop = n if step > 0 else -1
    elif stop < 0:
        stop = max(0, stop + n)
    return min(start, n), min(stop, n), step
