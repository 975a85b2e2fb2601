"""The go board: points, neighbours, chains, liberties, captures and the position hash.

A board of size N (5..19) is a padded bytearray of (N+2)*(N+2) cells so that the four
neighbours of a point are p-1, p+1, p-stride, p+stride with no bounds checks; the padding holds
EDGE. Row 0 of the playing area is line 1 (the bottom line, as the seeds and SGF-free notation
count it); columns are A..T without I.

The position hash is Zobrist: one value < 2**30 per (point, colour), so it stays a MicroPython
small int on the 32-bit target; XOR keeps it incremental. A hash match alone never declares a
repetition: callers confirm by comparing positions (see ko.py).

`place()` plays a stone and reports OK, OCCUPIED or SUICIDE; `undo()` takes back the last
`place()` exactly (used to test a move against the ko policy, and for retractions).
"""

import sys

from . import const

EMPTY = const(0)
BLACK = const(1)
WHITE = const(2)
EDGE = const(3)

# Results of place().
OK = const(0)
OCCUPIED = const(1)
SUICIDE = const(2)

# Self-removal ("suicide") policies, from the rulesets' texts (see rulesets.py).
SUICIDE_FORBIDDEN = const(0)  # AGA, Chinese, Japanese: a play may not leave its own chain dead
SUICIDE_GROUPS_ONLY = const(1)  # Ing: a chain of 2+ stones may remove itself, one stone may not
SUICIDE_ALLOWED = const(2)  # Simplified Ing, New Zealand, Tromp-Taylor

MIN_SIZE = const(5)
MAX_SIZE = const(19)

COLUMNS = "ABCDEFGHJKLMNOPQRST"  # no I, as on a real board
_LINES = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10")
_LINES += ("11", "12", "13", "14", "15", "16", "17", "18", "19")
_SGF_LETTERS = "abcdefghijklmnopqrs"
_ROW_CHARS = b".BW"  # rows(): a cell (EMPTY, BLACK, WHITE) as its character
_NONE = ()  # no stones removed (shared: nothing made on a quiet play)


def opponent(color):
    return 3 - color


def color_name(color):
    return "B" if color == BLACK else "W"


def color_from_name(name):
    if name in ("B", "b"):
        return BLACK
    if name in ("W", "w"):
        return WHITE
    raise ValueError("colour must be B or W, not %r" % (name,))


def _zobrist_values(count, seed):
    # xorshift32, masked to 30 bits: the same table on CPython and MicroPython.
    out = [0] * count
    x = seed
    for i in range(count):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        v = x & 0x3FFFFFFF
        out[i] = v if v else 1
    return out


# One table for the largest board, shared by all sizes (indexes are padded-board indexes).
_ZOBRIST_CELLS = (MAX_SIZE + 2) * (MAX_SIZE + 2)
_ZOBRIST = _zobrist_values(2 * _ZOBRIST_CELLS + 1, 2463534242)
# Hash component for "White to play", used by situational superko.
WHITE_TO_PLAY_KEY = _ZOBRIST[2 * _ZOBRIST_CELLS]


def _native_liberty():
    """liberty_viper.has_liberty where this port has a native emitter, else None."""
    try:
        from . import liberty_viper
    except (ImportError, SyntaxError, ValueError):
        return None  # no native emitter (WebAssembly), CPython, or an .mpy for another CPU
    return liberty_viper.has_liberty if liberty_viper.NATIVE else None


_HAS_LIBERTY = _native_liberty()

# size -> the padded indexes of a board's points, one tuple shared by every board of that size
# (a game makes several boards: its own, replays, copies for the count).
_POINTS = {}


def _points(size, stride):
    points = _POINTS.get(size)
    if points is None:
        points = tuple((row + 1) * stride + col + 1 for row in range(size) for col in range(size))
        _POINTS[size] = points
    return points


class Board:
    """Stones on a size×size board, with captures, self-removal and an incremental hash."""

    def __init__(self, size):
        if not isinstance(size, int) or size < MIN_SIZE or size > MAX_SIZE:
            raise ValueError("board size must be %d..%d, not %r" % (MIN_SIZE, MAX_SIZE, size))
        self.size = size
        stride = size + 2
        self.stride = stride
        cells = bytearray(stride * stride)  # MicroPython has no bytearray * int
        for i in range(stride * stride):
            cells[i] = EDGE
        for row in range(size):
            base = (row + 1) * stride + 1
            for col in range(size):
                cells[base + col] = EMPTY
        self.cells = cells
        self.points = _points(size, stride)
        self.hash = 0
        self.count = [0, 0, 0]  # stones on the board per colour (index BLACK, WHITE)
        # Whole words (liberty_viper.py clears it a word at a time).
        self._mark = bytearray((stride * stride + 3) & ~3)
        # Undo record of the last place(): point, colour, captured, self-removed, old hash.
        # The last place(), for undo(): point * 4 + colour; 0 when there is nothing to undo.
        self._undo = 0
        self.captured = _NONE  # opponent stones removed by the last place()
        self.self_removed = _NONE  # own stones removed by the last place() (self-removal)

    # -- coordinates -------------------------------------------------------------------------

    def index(self, col, row):
        """Padded index of (col, row), both 0-based from the bottom-left corner."""
        size = self.size  # one attribute read, not four (bench: mcu_move_us)
        if not (0 <= col < size and 0 <= row < size):
            raise ValueError("point (%d, %d) is off a %d×%d board" % (col, row, size, size))
        return (row + 1) * (size + 2) + col + 1

    def col_row(self, p):
        return p % self.stride - 1, p // self.stride - 1

    def name(self, p):
        """The seeds' notation: column letter (no I) and line number from the bottom: Q16."""
        # One allocation (the result): the line numbers are constants (in ROM on the board),
        # no (col, row) tuple - a count names every point of a full board (issue 20).
        s = self.stride
        return COLUMNS[p % s - 1] + _LINES[p // s - 1]

    def parse(self, text):
        """Point from the seeds' notation ("Q16", "a1"); ValueError when off this board."""
        if not isinstance(text, str) or len(text) < 2:
            raise ValueError("bad point %r" % (text,))
        letter = text[0].upper()
        col = COLUMNS.find(letter)
        digits = text[1:]
        if col < 0 or not digits.isdigit():
            raise ValueError("bad point %r" % (text,))
        row = int(digits) - 1
        if col >= self.size or row < 0 or row >= self.size:
            raise ValueError("point %s is off a %d×%d board" % (text, self.size, self.size))
        return (row + 1) * self.stride + col + 1

    def sgf(self, p):
        """SGF coordinates: column then row, 'a' = left / top."""
        s = self.stride
        return _SGF_LETTERS[p % s - 1] + _SGF_LETTERS[self.size - p // s]

    def from_sgf(self, text):
        if len(text) != 2:
            raise ValueError("bad SGF point %r" % (text,))
        col = ord(text[0]) - 97
        row = self.size - 1 - (ord(text[1]) - 97)
        if col < 0 or col >= self.size or row < 0 or row >= self.size:
            raise ValueError("SGF point %r is off a %d×%d board" % (text, self.size, self.size))
        return (row + 1) * self.stride + col + 1

    def neighbours(self, p):
        s = self.stride
        return (p - s, p - 1, p + 1, p + s)

    # -- stones ------------------------------------------------------------------------------

    def get(self, p):
        return self.cells[p]

    def set(self, p, color):
        """Put or remove a stone with no rules applied (setup stones, dead-stone removal)."""
        cells = self.cells
        old = cells[p]
        if old == EDGE:
            raise ValueError("not a point")
        if old == color:
            return
        if old != EMPTY:
            self.hash ^= _ZOBRIST[p * 2 + old - 1]
            self.count[old] -= 1
        if color != EMPTY:
            self.hash ^= _ZOBRIST[p * 2 + color - 1]
            self.count[color] += 1
        cells[p] = color
        self._undo = 0

    def chain(self, p):
        """All points of the chain at p (which must hold a stone)."""
        return self._flood(p, False)[0]

    def liberties(self, p):
        """Number of distinct liberties of the chain at p."""
        stones = self._flood(p, False)[0]
        cells = self.cells
        mark = self._mark
        s = self.stride
        libs = []
        for q in stones:
            for n in (q - s, q - 1, q + 1, q + s):
                if cells[n] == EMPTY and not mark[n]:
                    mark[n] = 1
                    libs.append(n)
        for n in libs:
            mark[n] = 0
        return len(libs)

    def _flood(self, p, stop_at_liberty):
        # Chain of p; with stop_at_liberty, returns early (stones incomplete) once it sees a
        # liberty. Returns (stones, has_liberty). Marks are cleared before returning.
        cells = self.cells
        mark = self._mark
        s = self.stride
        color = cells[p]
        stones = [p]
        mark[p] = 1
        i = 0
        free = False
        while i < len(stones):
            q = stones[i]
            i += 1
            for n in (q - s, q - 1, q + 1, q + s):
                c = cells[n]
                if c == color:
                    if not mark[n]:
                        mark[n] = 1
                        stones.append(n)
                elif c == EMPTY:
                    free = True
                    if stop_at_liberty:
                        for m in stones:
                            mark[m] = 0
                        return stones, True
        for m in stones:
            mark[m] = 0
        return stones, free

    def _remove(self, stones, color, out):
        cells = self.cells
        h = self.hash
        base = color - 1
        for q in stones:
            cells[q] = EMPTY
            h ^= _ZOBRIST[q * 2 + base]
            out.append(q)
        self.hash = h
        self.count[color] -= len(stones)

    def _take(self, n, color, captured):
        # The chain at n (of `color`, just touched by a play) is removed when it has no
        # liberty left; returns the captured list (made at the first capture).
        stones, free = self._flood(n, True)
        if free:
            return captured
        if not captured:
            captured = []
        self._remove(stones, color, captured)
        return captured

    def place(self, p, color, suicide=SUICIDE_FORBIDDEN):
        """Play a stone of `color` at p: remove captured chains, then apply self-removal.

        Returns OK, OCCUPIED or SUICIDE (nothing changed). After OK, `captured` lists the
        opponent stones removed and `self_removed` the player's own stones removed by a
        permitted suicide (both empty sequences after a quiet play); `undo()` restores the
        previous position.
        """
        # Speed (bench: mcu_move_us): the quiet play - every opponent stone next to p keeps a
        # liberty other than p, and p has an empty neighbour (no capture, no self-removal) -
        # is made here; any other goes to _place. This function keeps to 11 slots of locals
        # and stack (no more locals, no call of more arguments): MicroPython then makes its
        # frame on the C stack, where a larger one is a heap block whose search, in the heap
        # of a game in progress, cost more than the play.
        cells = self.cells
        if cells[p]:  # not EMPTY
            return OCCUPIED
        s = self.stride
        if (
            not (cells[p - s] and cells[p - 1] and cells[p + 1] and cells[p + s])
            and not (
                cells[p - s] == 3 - color
                and cells[p - s - s]
                and cells[p - s - 1]
                and cells[p - s + 1]
            )
            and not (
                cells[p - 1] == 3 - color
                and cells[p - 1 - s]
                and cells[p - 2]
                and cells[p - 1 + s]
            )
            and not (
                cells[p + 1] == 3 - color
                and cells[p + 1 - s]
                and cells[p + 2]
                and cells[p + 1 + s]
            )
            and not (
                cells[p + s] == 3 - color
                and cells[p + s - 1]
                and cells[p + s + 1]
                and cells[p + s + s]
            )
        ):
            cells[p] = color
            self.hash ^= _ZOBRIST[p * 2 + color - 1]
            self.count[color] += 1
            self.captured = ()
            self.self_removed = ()
            self._undo = p * 4 + color
            return OK
        return self._place(p, color, suicide)

    def _place(self, p, color, suicide=SUICIDE_FORBIDDEN):
        # place() when the play may capture or remove itself (p is empty); on CPython place()
        # itself (below).
        cells = self.cells
        if cells[p]:  # not EMPTY
            return OCCUPIED
        cells[p] = color
        self.hash ^= _ZOBRIST[p * 2 + color - 1]
        self.count[color] += 1
        other = 3 - color
        s = self.stride
        native = _HAS_LIBERTY  # liberty_viper.has_liberty, on ports with native code (else None)
        # Speed (bench: rules): the four neighbours read once and unrolled (no tuple to loop
        # over), no list made on a quiet play, and a chain with an empty point next to the
        # stone looked at has a liberty without a flood (a flood that finds no liberty has
        # visited it all); that stone's fourth neighbour is p, occupied now. A neighbour read
        # as `other` but taken with a chain captured just before has an emptied chain-mate
        # next to it, so it is never flooded again.
        up = cells[p + s]
        left = cells[p - 1]
        right = cells[p + 1]
        down = cells[p - s]
        captured = ()  # a literal: no global looked up (MicroPython makes no object for it)
        if down == other:
            n = p - s
            if not (
                cells[n - s] == EMPTY
                or cells[n - 1] == EMPTY
                or cells[n + 1] == EMPTY
                or (native and native(cells, self._mark, n, s))
            ):
                captured = self._take(n, other, captured)
        if left == other:
            n = p - 1
            if not (
                cells[n - s] == EMPTY
                or cells[n - 1] == EMPTY
                or cells[n + s] == EMPTY
                or (native and native(cells, self._mark, n, s))
            ):
                captured = self._take(n, other, captured)
        if right == other:
            n = p + 1
            if not (
                cells[n - s] == EMPTY
                or cells[n + 1] == EMPTY
                or cells[n + s] == EMPTY
                or (native and native(cells, self._mark, n, s))
            ):
                captured = self._take(n, other, captured)
        if up == other:
            n = p + s
            if not (
                cells[n - 1] == EMPTY
                or cells[n + 1] == EMPTY
                or cells[n + s] == EMPTY
                or (native and native(cells, self._mark, n, s))
            ):
                captured = self._take(n, other, captured)
        removed = ()
        # With nothing captured no point changed: the neighbours read above are the board's.
        if not captured and not (
            down == EMPTY
            or left == EMPTY
            or right == EMPTY
            or up == EMPTY
            or (native and native(cells, self._mark, p, s))
        ):
            stones, free = self._flood(p, True)
            if not free:
                if suicide == SUICIDE_FORBIDDEN or (
                    suicide == SUICIDE_GROUPS_ONLY and len(stones) == 1
                ):
                    cells[p] = EMPTY
                    self.hash ^= _ZOBRIST[p * 2 + color - 1]
                    self.count[color] -= 1
                    return SUICIDE
                removed = []
                self._remove(stones, color, removed)
        self.captured = captured
        self.self_removed = removed
        self._undo = p * 4 + color  # one small int, no record object (bench: rules)
        return OK

    if sys.implementation.name != "micropython":
        # CPython makes every frame alike: there the one function, without the quiet play's
        # test before it, is the quicker (bench: rules_cpython_speedup).
        place = _place

    def undo(self):
        """Take back the last place() exactly; ValueError if there is nothing to undo."""
        record = self._undo
        if not record:
            raise ValueError("nothing to undo")
        p = record >> 2
        color = record & 3
        cells = self.cells
        other = 3 - color
        h = self.hash ^ _ZOBRIST[p * 2 + color - 1]
        captured = self.captured
        for q in captured:
            cells[q] = other
            h ^= _ZOBRIST[q * 2 + other - 1]
        removed = self.self_removed
        for q in removed:
            cells[q] = color
            h ^= _ZOBRIST[q * 2 + color - 1]
        cells[p] = EMPTY  # it was empty before the play (and is in `removed` after suicide)
        self.count[other] += len(captured)
        self.count[color] += len(removed) - 1
        self.hash = h
        self._undo = 0
        self.captured = _NONE
        self.self_removed = _NONE

    # -- whole-position helpers --------------------------------------------------------------

    def snapshot(self):
        """A copy of the cells, for exact comparison of positions."""
        return bytes(self.cells)

    def copy(self):
        other = Board(self.size)
        other.cells[:] = self.cells
        other.hash = self.hash
        other.count = self.count[:]
        return other

    def rows(self):
        """Rows as strings of '.', 'B', 'W', top line first (the session log's scan layout)."""
        # Each row's characters go into one buffer, made a string once: a join over a
        # generator made a generator, a list and its growth per row - 106 ms of the RP2040's
        # time at the count of a long game, when each allocation searches a full heap.
        out = []
        cells = self.cells
        size = self.size
        line = bytearray(size)
        for row in range(size - 1, -1, -1):
            base = (row + 1) * self.stride + 1
            for c in range(size):
                line[c] = _ROW_CHARS[cells[base + c]]
            out.append(str(line, "ascii"))
        return out

    def load_rows(self, rows):
        """Set the whole position from rows as produced by rows() ('.', 'B'/'X', 'W'/'O')."""
        if len(rows) != self.size:
            raise ValueError("expected %d rows, got %d" % (self.size, len(rows)))
        for i in range(self.size):
            line = rows[i]
            if len(line) != self.size:
                raise ValueError(
                    "row %d has %d points, expected %d" % (i + 1, len(line), self.size)
                )
            row = self.size - 1 - i
            for col in range(self.size):
                ch = line[col]
                if ch in ".+":
                    color = EMPTY
                elif ch in "BX":
                    color = BLACK
                elif ch in "WO":
                    color = WHITE
                else:
                    raise ValueError("bad point %r in row %d" % (ch, i + 1))
                self.set((row + 1) * self.stride + col + 1, color)
        self._undo = 0


def stones_per_colour(size):
    """Ing: each player has (points - 1) / 2 stones: 180 on 19×19, 40 on 9×9."""
    return (size * size - 1) // 2
