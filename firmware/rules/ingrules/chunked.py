"""A list that never needs a large block of memory: items in fixed chunks of 64 slots.

Why (issue 20): on the Pico a Python list that grows by one item per ply is reallocated to
twice its size each time it is full, so a 600-ply game asks for one contiguous block of 2 KB,
then 4 KB, for each such list - after hours of play, in a heap that is full of holes, no such
block is left and the board raises MemoryError with a third of the heap free. A Chunked keeps
its items in lists of exactly CHUNK slots allocated once each (264 bytes, the size of the
small blocks everything else uses), so whatever its length it never needs a larger block, and
truncating it keeps its chunks for the items that come next (no churn after a retraction).

It does what the game, the tracker and the journal do with their per-ply lists: append, pop,
len, truth, index (negative too), assign, iterate, slices (as a new list), count and `in`
(both run in C per chunk), and `del c[n:]` (truncate).
"""

from . import const

CHUNK = const(64)


class Chunked:
    """A list of items stored in chunks of CHUNK slots (see the module docstring)."""

    def __init__(self, items=()):
        self.chunks = []
        self.n = 0
        for item in items:
            self.append(item)

    def append(self, item):
        n = self.n
        k = n // CHUNK
        if k == len(self.chunks):
            self.chunks.append([None] * CHUNK)
        self.chunks[k][n % CHUNK] = item
        self.n = n + 1

    def pop(self):
        if not self.n:
            raise IndexError("pop from an empty list")
        self.n -= 1
        chunk = self.chunks[self.n // CHUNK]
        item = chunk[self.n % CHUNK]
        chunk[self.n % CHUNK] = None
        return item

    def truncate(self, n):
        """Keep the first n items (the chunks stay allocated for what comes next)."""
        while self.n > n:
            self.n -= 1
            self.chunks[self.n // CHUNK][self.n % CHUNK] = None

    def __len__(self):
        return self.n

    def _index(self, i):
        if i < 0:
            i += self.n
        if i < 0 or i >= self.n:
            raise IndexError("index out of range")
        return i

    def __getitem__(self, i):
        if isinstance(i, slice):
            start, stop, step = slice_indices(i, self.n)
            return [self[k] for k in range(start, stop, step)]
        i = self._index(i)
        return self.chunks[i // CHUNK][i % CHUNK]

    def __setitem__(self, i, item):
        i = self._index(i)
        self.chunks[i // CHUNK][i % CHUNK] = item

    def __delitem__(self, i):
        if not isinstance(i, slice) or i.stop is not None or (i.step or 1) != 1:
            raise TypeError("only del x[n:] (truncation) is supported")
        start = i.start or 0
        if start < 0:
            start = max(0, self.n + start)
        self.truncate(start)

    def __iter__(self):
        n = self.n
        for chunk in self.chunks:
            if n <= 0:
                return
            if n >= CHUNK:
                yield from chunk
            else:
                for k in range(n):
                    yield chunk[k]
            n -= CHUNK

    def __reversed__(self):
        for i in range(self.n - 1, -1, -1):
            yield self.chunks[i // CHUNK][i % CHUNK]

    def count(self, item):
        """How many items equal `item` (None is never counted: empty slots hold it)."""
        if item is None:
            raise ValueError("None is not counted")
        total = 0
        for chunk in self.chunks:
            total += chunk.count(item)
        return total

    def __contains__(self, item):
        if item is None:
            return False
        for chunk in self.chunks:
            if item in chunk:
                return True
        return False

    def __eq__(self, other):
        return list(self) == list(other)

    def __repr__(self):
        # (ChunkedText's and ply_store.PlyStore's too: its class's name)
        return "%s(%r)" % (type(self).__name__, list(self))


FILTER_BYTES = const(256)  # a KeyLog's bitmap: 2048 bits
_FILTER_MASK = const(2047)


class KeyLog(Chunked):
    """A Chunked of int keys (board hashes, situation keys) that also knows, from a bitmap of
    the keys' low bits, when a key can NOT be in it: the usual case - a position never seen -
    then needs no scan of the whole game's keys at every move (bench: rules). Bits are never
    cleared (after a truncation or an assignment a bit may stay set for a key gone: a false
    "maybe", never a false "no"). `seen_before`: whether the last appended key's bit was set
    already (an earlier equal key is possible)."""

    def __init__(self, items=()):
        self.bits = bytearray(FILTER_BYTES)
        self.seen_before = False
        Chunked.__init__(self, items)

    def _mark(self, key):
        b = key & _FILTER_MASK
        bits = self.bits
        mask = 1 << (b & 7)
        old = bits[b >> 3]
        bits[b >> 3] = old | mask
        return old & mask

    def may_contain(self, key):
        b = key & _FILTER_MASK
        return self.bits[b >> 3] & (1 << (b & 7))

    def append(self, item):
        # Once a ply for each of the game's two logs: the mark and Chunked.append inline (one
        # Python call, not three; bench: rules).
        b = item & _FILTER_MASK
        bits = self.bits
        mask = 1 << (b & 7)
        old = bits[b >> 3]
        self.seen_before = old & mask
        bits[b >> 3] = old | mask
        n = self.n
        k = n // CHUNK
        chunks = self.chunks
        if k == len(chunks):
            chunks.append([None] * CHUNK)
        chunks[k][n % CHUNK] = item
        self.n = n + 1

    def __setitem__(self, i, item):
        self._mark(item)
        Chunked.__setitem__(self, i, item)


def slice_indices(s, n):
    """s.indices(n), also on ports whose slices have no indices() (a Chunked's and a
    PlyStore's slices)."""
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


TEXT_CHUNK = const(512)  # bytes of a ChunkedText's text chunk
_NO_TEXT = const(0)


class ChunkedText:
    """A list of short texts (or None) kept as bytes: the texts in bytearray chunks of
    TEXT_CHUNK bytes, each item a small int (its chunk, offset and length) in a Chunked - no
    str object per item lives on (issue 20: the SGF clock text of every ply, BL[..]OB[..], was
    a str of ~48 bytes on the Pico per ply, kept to the end of the game). Reading an item makes
    its str afresh. Assigning an item again writes its new text at the end of the chunks; the
    old bytes are left (a retraction, rare). A text is at most TEXT_CHUNK bytes of UTF-8.

    The interface: append, len, truth, index (negative too), assign, iterate, `del t[n:]`."""

    def __init__(self, items=()):
        self.slots = Chunked()
        self.chunks = []
        self.used = 0  # bytes used of the last chunk
        for item in items:
            self.append(item)

    def _put(self, text):
        if text is None:
            return _NO_TEXT
        data = text.encode()
        size = len(data)
        if size > TEXT_CHUNK:
            raise ValueError("a text of more than %d bytes" % TEXT_CHUNK)
        if not self.chunks or self.used + size > TEXT_CHUNK:
            self.chunks.append(bytearray(TEXT_CHUNK))
            self.used = 0
        k = len(self.chunks) - 1
        if k >= 512:
            raise ValueError("more than %d bytes of texts" % (512 * TEXT_CHUNK))
        at = self.used
        self.chunks[k][at : at + size] = data
        self.used = at + size
        # chunk (up to 2**9) << 20 | offset << 10 | size, plus one (0 is None): a small int.
        return ((k << 20) | (at << 10) | size) + 1

    def _get(self, code):
        if code == _NO_TEXT:
            return None
        code -= 1
        at = (code >> 10) & 0x3FF
        return bytes(self.chunks[code >> 20][at : at + (code & 0x3FF)]).decode()

    def append(self, text):
        self.slots.append(self._put(text))

    def __len__(self):
        return len(self.slots)

    def __getitem__(self, i):
        return self._get(self.slots[i])

    def __setitem__(self, i, text):
        self.slots[i] = self._put(text)

    def __delitem__(self, i):
        del self.slots[i]
        if not len(self.slots):  # nothing refers to the chunks: they are written again
            self.used = 0
            del self.chunks[1:]

    def truncate(self, n):
        del self[n:]

    def __iter__(self):
        for code in self.slots:
            yield self._get(code)

    __eq__ = Chunked.__eq__
    __repr__ = Chunked.__repr__
