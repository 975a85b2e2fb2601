"""A game's plies as small ints and bytes: a 600-ply game holds no object per ply (issue 20).

Why: as Python objects every ply of a game is a namedtuple (32 bytes on the Pico) plus a
tuple of the stones it captured, made one at a time all game long and kept to its end. On the
twin a 600-ply game left them, with the other per-ply objects, scattered through the whole heap
(~110 bytes a ply): at the count 22 KB were free and no block was larger than 3.9 KB. Here a
ply is one small int (a 4-byte slot of a record chunk, a list of PER_CHUNK slots) and its
captured or self-removed stones 2 bytes each of a stone chunk (a bytearray of CHUNK_BYTES);
both kinds of chunk are allocated once and kept when the game is cut back (a retraction), so
the store never needs a larger block and never churns. Writing a ply is one slot store
(bench: rules: eight byte stores a ply cost a sixth of the rules core's time a move).

A record (29 bits, a MicroPython small int): the point + 1 (0 for a pass; 9 bits), the colour
(1 bit), the kind (2 bits), whether the ply removed stones (1 bit) and the index of its first
stone entry in the stone chunks (16 bits). A ply that removed stones has as its first entry
how many of them it captured, then the captured stones, then those it removed itself, up to
the next ply's first entry. Reading a ply makes its `Ply` afresh (garbage at once); the last
one is kept, as that is the one read most (plies[-1] at every input).

The interface is what the game and its readers use of a list: append, len, truth, index
(negative too), slices (a new list), iteration (both ways), `del s[n:]` (truncate), ==; and
add(), which makes the Ply it appends and appends the situation key after it to the game's
key log (`keys`, a chunked.KeyLog) in the same call: on the RP2040 a call of a function with
more than a few locals takes its frame from the heap, and in a game's heap that search cost
more than the work (bench: mcu_move_us).
"""

import sys

from . import const
from .chunked import CHUNK, FILTER_BYTES, Chunked, KeyLog, slice_indices

# MicroPython's namedtuple constructor is C: the Ply is made by calling its class. A
# namedtuple's constructor is Python code on CPython (a call more for every ply, a third of a
# quiet play's time there; bench: rules): tuple.__new__ makes the same instance in C. Told by
# the implementation, not by `micropython` importing: a CPython host may provide a stand-in
# module of that name, and the bench's CPython figure was then taken on the slow path.
_TUPLE_NEW = None if sys.implementation.name == "micropython" else tuple.__new__

CHUNK_BYTES = const(512)  # bytes of a stone chunk
PER_CHUNK = const(64)  # plies of a record chunk (a list: 256 bytes of slots on the Pico)
_STONES = const(256)  # stone entries of a stone chunk (CHUNK_BYTES // 2)
MAX_STONES = const(0xFFFF)  # stone entries (counts and stones) in one game (16 bits)
_POINT = const(0x1FF)
COLOUR_SHIFT = const(9)
_KIND_SHIFT = const(10)
_HAS_STONES = const(0x1000)
START_SHIFT = const(13)
_NONE = ()
# A KeyLog's filter and chunks (chunked.py), as constants here: no global looked up a play.
_KEY_MASK = const(2047)
_KEY_CHUNK = const(64)
if _KEY_MASK != FILTER_BYTES * 8 - 1 or _KEY_CHUNK != CHUNK:
    raise ImportError("ply_store.py and chunked.py disagree on the key log's layout")


class PlyStore:
    """The plies of a game as small ints and bytes (see the module docstring);
    `make(color, point, captured, self_removed, kind)` builds a ply (game.Ply: a namedtuple
    class), `pass_point` is the point of a pass."""

    def __init__(self, make, pass_point):
        self.make = make
        self.pass_point = pass_point
        self.records = []  # lists of PER_CHUNK records
        self.stones = []  # bytearray chunks of _STONES u16 entries
        self.n = 0
        self.stone_n = 0
        self._last = None  # the Ply of index n - 1, once made
        self.keys = KeyLog()  # add() appends each ply's key here (the game sets its own log)

    # -- writing

    def append(self, ply):
        """Append a Ply (its key, if any, is the caller's to append)."""
        self.add(ply[0], ply[1], ply[2], ply[3], ply[4], None)
        self._last = ply

    def add(self, color, point, captured, removed, kind, key):
        """Append the ply of these fields, and `key` (the situation key after it; None: no
        key) to `keys`; returns the Ply (made by `make`)."""
        if key is not None:
            # KeyLog.append, inline (see the module docstring): the filter's bit, the slot.
            keys = self.keys
            bits = keys.bits
            i = (key & _KEY_MASK) >> 3
            mask = 1 << (key & 7)
            old = bits[i]
            keys.seen_before = old & mask
            bits[i] = old | mask
            n = keys.n
            at = n % _KEY_CHUNK
            chunks = keys.chunks
            if not at and n // _KEY_CHUNK == len(chunks):  # len() once a chunk, not a ply
                chunks.append([None] * _KEY_CHUNK)
            chunks[n // _KEY_CHUNK][at] = key
            keys.n = n + 1
        start = self.stone_n
        code = (start << START_SHIFT) | (kind << _KIND_SHIFT) | ((color - 1) << COLOUR_SHIFT)
        if point != self.pass_point:
            code |= point + 1
        if captured or removed:  # a quiet move (the usual one) keeps no stones (bench: rules)
            taken = len(captured)
            if start + 1 + taken + len(removed) > MAX_STONES:
                raise ValueError("a game of more than %d captured stones" % MAX_STONES)
            code |= _HAS_STONES
            self._stone(taken)
            for q in captured:
                self._stone(q)
            for q in removed:
                self._stone(q)
        n = self.n
        at = n % PER_CHUNK
        records = self.records
        if not at and n // PER_CHUNK == len(records):
            records.append([0] * PER_CHUNK)
        records[n // PER_CHUNK][at] = code
        self.n = n + 1
        if _TUPLE_NEW is None:
            ply = self.make(color, point, captured, removed, kind)
        else:
            ply = _TUPLE_NEW(self.make, (color, point, captured, removed, kind))
        self._last = ply
        return ply

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

    __delitem__ = Chunked.__delitem__  # del s[n:]: truncate(n)

    # -- reading

    def __len__(self):
        return self.n

    def _start(self, i):
        return self.records[i // PER_CHUNK][i % PER_CHUNK] >> START_SHIFT

    def _entry(self, i):
        chunk = self.stones[i // _STONES]
        at = (i % _STONES) * 2
        return chunk[at] | (chunk[at + 1] << 8)

    def _points(self, start, stop):
        out = []
        for i in range(start, stop):
            out.append(self._entry(i))
        return tuple(out)

    def _make(self, i):
        code = self.records[i // PER_CHUNK][i % PER_CHUNK]
        point = (code & _POINT) - 1
        captured = removed = _NONE
        if code & _HAS_STONES:
            start = code >> START_SHIFT
            stop = self._start(i + 1) if i + 1 < self.n else self.stone_n
            cut = start + 1 + self._entry(start)
            captured = self._points(start + 1, cut) if cut > start + 1 else _NONE
            removed = self._points(cut, stop) if stop > cut else _NONE
        return self.make(
            ((code >> COLOUR_SHIFT) & 1) + 1,
            self.pass_point if point < 0 else point,
            captured,
            removed,
            (code >> _KIND_SHIFT) & 3,
        )

    def __getitem__(self, i):
        if isinstance(i, slice):
            start, stop, step = slice_indices(i, self.n)
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

    __eq__ = Chunked.__eq__
    __repr__ = Chunked.__repr__
