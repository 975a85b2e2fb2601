"""Per-point classifier: raw Hall readings -> '.', 'B', 'W', '?' per point, every scan.

Pure and allocation-free per scan (but for the list of a scan's new faults, when it finds
some): all state lives in arrays built once. Points are in scan order (index 0 = A19, column A
first, top line first), the order of the session log's `scan` line, so `format_scan` only
inserts the '/' between rows.

Sign convention (hardware_docs/design.md, "Stones"): Black stones carry their magnet south
pole down, White north pole down; a DRV5055 mounted marked face up reads above its empty level
(VCC/2) for Black and below it for White. The classifier itself needs no global sign: each
point has three calibrated levels (empty, black, white) and classifies the reading's deviation
from its (tracked) empty baseline as a fraction of that point's black and white spans:

- hysteresis: a point enters B (W) when the deviation reaches `enter_pct` % of its black
  (white) span and leaves it only below `leave_pct` %; between the two it keeps its class. A
  stone 5 mm off centre still gives about a third of the centred signal (design.md), and the
  eight neighbours together shift a point by at most about 6 %, hence 25 % / 12 % defaults.
- over-range: beyond `over_pct` % of a span (a loose magnet, a phone) the point reads '?'.
- baseline tracking: a point that has read empty for `settle_scans` scans follows slow drift
  of its empty level (exponential, 1/2**`track_shift` per scan), never further from the
  calibrated empty level than `drift_pct` % of its smaller span.
- faults (the `sensor-fault` alert): a reading within `rail` counts of 0 or 65535 for
  `fault_scans` scans in a row (sensor dead, shorted, unpowered or unplugged), a reading that
  repeats bit for bit for `frozen_scans` scans (a live sensor and ADC always show noise; 0
  disables the check), or a calibration that cannot work (black and white on the same side of
  empty, or a span under `min_span`). A faulty point reads '?' from then on; the game continues
  without it. New faults of the last scan are listed in `new_faults[:new_fault_count]`.

The calibration file's format and its reading: sensing/calibration.py (imported only to read one).
"""

from array import array

from micropython import const

EMPTY = const(46)  # ord('.')
BLACK = const(66)  # ord('B')
WHITE = const(87)  # ord('W')
UNKNOWN = const(63)  # ord('?')

# Fault reasons (Classifier.fault[i]); 0 = healthy.
FAULT_RAIL = const(1)
FAULT_FROZEN = const(2)
FAULT_CALIBRATION = const(3)
FAULT_NAMES = {FAULT_RAIL: "rail", FAULT_FROZEN: "frozen", FAULT_CALIBRATION: "calibration"}

COLUMNS = "ABCDEFGHJKLMNOPQRST"  # no I, as on a real board


# Without a calibration file: empty at VCC/2, a stone one centred stone's span away
# (physical.py: 14.8 mT of a 6x1 mm N35 magnet over 5 mm of wood, 30 mV/mT: 8818 counts).
# Copied as consts, not imported: the whole table would sit in the board's heap for two
# numbers; tests/host/test_physical.py checks they equal physical.EMPTY_COUNTS and
# physical.STONE_SPAN_COUNTS.
DEFAULT_EMPTY = const(32768)
DEFAULT_SPAN = const(8818)

_COUNT_CAP = const(60000)
# over_pct's limit: a span (< 65536) times it stays within the native loop's 31 bits.
_OVER_CAP = const(30000)
_RAIL_RUN = const(256)  # a run at a rail is kept as this plus its scans (Classifier._run)
_PARTS = const(16)  # a scan classified in parts (begin): at most one a group address
# A fault found in the scan being classified: its reason | _NEW in `fault` until the scan is
# whole (_take_new_faults), where new_faults[] was an array of every point (~0.8 KB of the
# heap all game long on 19x19, for faults that come once a sensor dies; issue 32).
_NEW = const(0x80)
# The params' slot where a scan's loop notes that a class changed (and set_point,
# clear_faults); `changed` takes it at the scan's end (the app's test of a new scan line, with
# no copy of the last classes to compare: ~0.4 KB of the heap, issue 32).
_CHANGED = const(28)  # after 9, _PARTS and enter_pct, leave_pct, over_pct
_ARRAY = type(array("H"))


def _native_loop():
    """classify_viper.classify_points where this port has a native emitter (and uctypes, for
    its arrays' addresses), else None."""
    try:
        import uctypes  # noqa: F401  (a port without it: the pure loop)

        from ingboard.sensing import classify_viper
    except (ImportError, SyntaxError, ValueError):
        return None  # no native emitter (WebAssembly) or an .mpy for another architecture
    return classify_viper.classify_points if classify_viper.NATIVE else None


def point_name(index, size=19):
    """Scan-order index -> the seeds' point name ('A19' is index 0)."""
    row, col = divmod(index, size)
    return "%s%d" % (COLUMNS[col], size - row)


def point_index(name, size=19):
    """The seeds' point name -> scan-order index; ValueError for a point not on the board."""
    text = name.strip().upper()
    col = COLUMNS.find(text[:1]) if text else -1
    try:
        line = int(text[1:])
    except ValueError:
        line = 0
    if col < 0 or col >= size or line < 1 or line > size:
        raise ValueError("not a point on a %dx%d board: %r" % (size, size, name))
    return (size - line) * size + col


def scan_line_length(size):
    return size * size + size - 1


def format_scan_into(classes, size, out):
    """Write the session log's `scan` payload (rows joined by '/') into bytearray `out`."""
    # A row at a time, copied in C from a view of the classes (a point at a time this was
    # ~8 ms of the RP2040 at every change of the board; issue 32).
    view = memoryview(classes)
    j = 0
    for i in range(0, size * size, size):
        if i:
            out[j] = 47  # '/'
            j += 1
        out[j : j + size] = view[i : i + size]
        j += size
    return out


def format_scan(classes, size=19):
    """The `scan` payload as a str, e.g. '.../.B./...' for a 3x3 board."""
    buf = bytearray(scan_line_length(size))
    format_scan_into(classes, size, buf)
    return buf.decode()


def _set_ends(p, ends):
    # Classifier.begin's parts: where each ends in the scan's order.
    for k in range(len(ends)):
        p[9 + k] = ends[k]


class Classifier:
    """Turns each scan's readings into `classes` (bytearray of '.', 'B', 'W', '?')."""

    def __init__(
        self,
        size=19,
        enter_pct=25,
        leave_pct=12,
        over_pct=250,
        rail=256,
        fault_scans=20,
        frozen_scans=600,
        settle_scans=20,
        track_shift=8,
        drift_pct=25,
        min_span=1000,
    ):
        if not 0 < leave_pct < enter_pct < 100 < over_pct <= _OVER_CAP:
            raise ValueError("need 0 < leave_pct < enter_pct < 100 < over_pct <= %d" % _OVER_CAP)
        if not 0 < fault_scans <= _COUNT_CAP or not 0 <= frozen_scans <= _COUNT_CAP:
            raise ValueError("fault_scans and frozen_scans must fit in 1..%d" % _COUNT_CAP)
        if not 0 <= settle_scans <= 255:
            raise ValueError("settle_scans must fit in 0..255")
        n = size * size
        self.size = size
        self.points = n
        # The settings are fixed once the classifier is made: the native loop reads its copy in
        # _params (below), the pure loop these attributes - a board with other settings makes
        # a new Classifier.
        self.enter_pct = enter_pct
        self.leave_pct = leave_pct
        self.over_pct = over_pct
        self.rail_low = rail
        self.rail_high = 0xFFFF - rail
        self.fault_scans = fault_scans
        self.frozen_scans = frozen_scans
        self.settle_scans = settle_scans
        self.track_shift = track_shift
        self.drift_pct = drift_pct
        self.min_span = min_span
        # The state below lives as long as the board: its arrays are made one after another
        # from one zeroed bytes object (an array made from bytes takes them as its raw
        # contents, here and on CPython), so no temporary list lands between them.
        zeros = bytes(2 * n)
        self.baseline = array("i", zeros + zeros)  # tracked empty level, x256 (fixed point)
        self.classes = bytearray(n)
        self.fault = bytearray(n)
        self.new_faults = array("H")  # made when a scan finds some (_take_new_faults)
        self.new_fault_count = 0
        self.changed = 1  # a class changed in the last scan (or since the one before it)
        self.scans = 0
        # Calibration, per point: empty level, and signed black/white spans (counts).
        self.cal_empty = array("H", zeros)
        self._sign_b = bytearray(n)  # 1: black reads above empty, 0: below
        # Each point's black and white spans (counts, the deviation's size toward each colour;
        # at most 0xFFFF). The thresholds are fractions of them, compared in hundredths
        # (`_classify`): 2 arrays where the thresholds themselves were 6 (~2.9 KB of the
        # board's heap on 19x19).
        self._span_b = array("H", zeros)
        self._span_w = array("H", zeros)
        # The baseline's limit (counts, capped at 0xFFFF: a limit that wide is no limit for a
        # baseline that stays within 0..65535 either way).
        self._drift = array("H", zeros)
        self._last = array("H", zeros)
        self._same = array("H", zeros)
        # A point's run: its empty scans in a row (up to settle_scans, <= 255), or _RAIL_RUN +
        # its scans at a rail in a row (up to fault_scans): never both at once (a scan at a rail
        # ends the empty run, one off the rails the rail run), so one array holds either.
        self._run = array("H", zeros)
        # The native loop (classify_viper.py) on ports that have one; `native = None` forces
        # the pure loop (the twin's test compares the two).
        self.native = _native_loop()
        # The native loop's arrays, as their addresses (the heap's objects never move): it
        # takes each as a pointer with no call into the runtime (a subscript and a buffer's
        # lookup were 24 calls at every part of every scan, and ~0.3 KB of its machine code,
        # which is heap).
        self._state = None
        if self.native is not None:
            from uctypes import addressof

            self._state = array(
                "I",
                [
                    addressof(a)
                    for a in (
                        self.classes,
                        self.fault,
                        self.baseline,
                        self._sign_b,
                        self._span_b,
                        self._span_w,
                        self._last,
                        self._same,
                        self._run,
                        self.cal_empty,
                        self._drift,
                    )
                ],
            )
        # classify_viper's params: 7 settings, the new faults so far, the part (-1: the whole
        # scan), the ends of up to _PARTS parts (begin), then enter_pct, leave_pct, over_pct
        # (written once, here, with the 7 settings: fixed once the classifier is made - writing
        # them at every scan was ~60 us of the RP2040 a scan).
        self._params = array(
            "i",
            [n, self.rail_low, self.rail_high, fault_scans, frozen_scans, settle_scans]
            + [track_shift, 0, 0]
            + [0] * _PARTS
            + [enter_pct, leave_pct, over_pct, 1],
        )
        self._order = None  # a scan classified in parts (begin): its points by part
        self._ends_of = None  # the `ends` whose parts the params hold (begin)
        self._readings = None
        self._parts = None  # part()'s loop: the native one, or _pure_part (begin)
        self.set_default_calibration()

    # -- calibration ----------------------------------------------------------------------

    def set_default_calibration(self):
        for i in range(self.points):
            self.set_point(
                i, DEFAULT_EMPTY, DEFAULT_EMPTY + DEFAULT_SPAN, DEFAULT_EMPTY - DEFAULT_SPAN
            )

    def load_calibration(self, data):
        """Apply a calibration file's bytes (see the module docstring)."""
        from ingboard.sensing.calibration import parse_calibration

        size, empty, black, white = parse_calibration(data)
        if size != self.size:
            raise ValueError(
                "calibration is for %dx%d, board is %dx%d" % (size, size, self.size, self.size)
            )
        for i in range(self.points):
            self.set_point(i, empty[i], black[i], white[i])

    def set_point(self, i, empty, black, white):
        """Calibrate point i with its three readings; resets its state and any fault."""
        sb = black - empty
        sw = white - empty
        self.cal_empty[i] = empty
        self.baseline[i] = empty << 8
        self._params[_CHANGED] = 1
        self.classes[i] = EMPTY
        self.fault[i] = 0
        self._same[i] = 0
        self._run[i] = 0
        ab = sb if sb > 0 else -sb
        aw = sw if sw > 0 else -sw
        if (sb > 0) == (sw > 0) or ab < self.min_span or aw < self.min_span:
            # Black and white on the same side, or too weak a signal: unusable.
            self.fault[i] = FAULT_CALIBRATION
            self.classes[i] = UNKNOWN
            ab = aw = self.min_span
        self._sign_b[i] = 1 if sb > 0 else 0
        self._span_b[i] = ab
        self._span_w[i] = aw
        self._drift[i] = min(min(ab, aw) * self.drift_pct // 100, 0xFFFF)

    def clear_faults(self):
        """Give every faulty point (except bad calibrations) another chance."""
        for i in range(self.points):
            if self.fault[i] and self.fault[i] != FAULT_CALIBRATION:
                self.fault[i] = 0
                self._same[i] = 0
                self._params[_CHANGED] = 1
                if self._run[i] >= _RAIL_RUN:
                    self._run[i] = 0  # the rail run ends (an empty run stays)
                self.classes[i] = EMPTY

    # -- the per-scan path (allocates nothing) ---------------------------------------------

    def classify(self, readings):
        """Classify one scan (readings in scan order); return the number of new faults."""
        p = self._set_params(-1)
        if self.native is not None and type(readings) is _ARRAY:
            nf = self.native(self._state, readings, p, readings)
        else:
            nf = self._classify(readings, None, 0, self.points, 0)
        if nf:
            nf = self._take_new_faults()
        self.new_fault_count = nf
        self.changed = p[_CHANGED]
        p[_CHANGED] = 0
        self.scans += 1
        return nf

    def _set_params(self, part):
        p = self._params
        p[7] = 0
        p[8] = part
        return p

    # A scan classified while it is read (the grid's whole native scan calls part() in each
    # sensor power-on wait, for the points read before it, and the waits take as long): the
    # same per-point steps as classify(), the points in another order - each point's state is
    # its own, and the new faults are put back in point order at the end (end()) - so the
    # classes, baselines and faults are the same.

    def begin(self, readings, order, ends):
        """Start classifying the scan that fills `readings` in parts: `order` (array 'H') the
        points in the order the scan reads them, `ends[k]` the end in `order` of part k's
        points (at most _PARTS parts; GridScanner.order, .ends)."""
        # (This, part() and end() in frames MicroPython keeps on the C stack: each is called
        # once a scan, 25 times a second - drivers/keys.py says why.)
        # The parts' ends are written into the params once for the grid's `ends` (the same
        # object every scan; its 16 writes were ~0.15 ms a scan of the RP2040).
        if ends is not self._ends_of:
            if len(ends) > _PARTS:
                raise ValueError("at most %d parts" % _PARTS)
            _set_ends(self._params, ends)
            self._ends_of = ends
        p = self._params  # _set_params(0), in line (a call is ~25 us of the RP2040)
        p[7] = 0
        p[8] = 0
        self._readings = readings
        self._order = order
        self._parts = self.native if self.native is not None else self._pure_part

    def part(self, k):
        """Classify part k's points (begin()), read by now. (Small: a frame MicroPython keeps
        on the C stack, drivers/keys.py says why; called once a part of every scan.)"""
        p = self._params
        p[8] = k
        p[7] = self._parts(self._state, self._readings, p, self._order)

    def _pure_part(self, _state, readings, p, order):
        # part() where there is no native loop (CPython, the WebAssembly port).
        k = p[8]
        return self._classify(readings, order, p[8 + k] if k else 0, p[9 + k], p[7])

    def end(self):
        """The scan classified in parts is whole: the number of new faults (classify())."""
        p = self._params
        nf = p[7]
        if nf:
            nf = self._take_new_faults()
        self.new_fault_count = nf
        self.changed = p[_CHANGED]
        p[_CHANGED] = 0
        self.scans += 1
        self._readings = None
        return nf

    def _take_new_faults(self):
        # The new faults of the scan (each marked _NEW), in point order, into new_faults, their
        # marks cleared; how many. A mark that a scan cut short left behind (an exception
        # between the marking and the scan's end) is taken with them: its fault is new too.
        fault = self.fault
        n = 0
        for i in range(self.points):
            if fault[i] & _NEW:
                n += 1
        found = array("H", range(n))  # (made at its size: no zeroed copy to throw away)
        j = 0
        for i in range(self.points):
            if fault[i] & _NEW:
                fault[i] &= 0x7F
                found[j] = i
                j += 1
        self.new_faults = found
        return n

    def _classify(self, readings, order, start, stop, nf):
        # The pure loop (CPython, the WebAssembly port; classify_viper.py does the same) over
        # the points order[start:stop] (order None: the points start..stop-1), `nf` new faults
        # found before them in this scan. No allocation: `for j in range(a, b)` makes no range
        # object in MicroPython, and no slice of `order` is taken.
        classes = self.classes
        fault = self.fault
        base = self.baseline
        sign_b = self._sign_b
        span_b = self._span_b
        span_w = self._span_w
        enter = self.enter_pct
        leave = self.leave_pct
        over = self.over_pct
        last = self._last
        same = self._same
        run = self._run
        rail_low = self.rail_low
        rail_high = self.rail_high
        fault_scans = self.fault_scans
        frozen_scans = self.frozen_scans
        settle = self.settle_scans
        shift = self.track_shift
        cal = self.cal_empty
        drift = self._drift
        changed = 0
        for j in range(start, stop):
            i = j if order is None else order[j]
            if fault[i]:
                continue
            r = readings[i]
            if r <= rail_low or r >= rail_high:
                c = run[i]
                c = c - _RAIL_RUN + 1 if c >= _RAIL_RUN else 1
                run[i] = _RAIL_RUN + c  # (the empty run ends)
                if classes[i] != UNKNOWN:
                    changed = 1
                classes[i] = UNKNOWN
                if c >= fault_scans:
                    fault[i] = FAULT_RAIL | _NEW
                    nf += 1
                continue
            if run[i] >= _RAIL_RUN:
                run[i] = 0  # the rail run ends
            if frozen_scans:
                if r == last[i]:
                    c = same[i] + 1
                    same[i] = c
                    if c >= frozen_scans:
                        fault[i] = FAULT_FROZEN | _NEW
                        if classes[i] != UNKNOWN:
                            changed = 1
                        classes[i] = UNKNOWN
                        nf += 1
                        continue
                else:
                    same[i] = 0
                    last[i] = r
            # The deviation toward black and toward white in hundredths of a count, against
            # each span times a percentage: `pb >= span * enter_pct // 100` is exactly
            # `100 * pb + 100 > span * enter_pct`, and `pb > span * over_pct // 100` (capped at
            # 0xFFFF, which no deviation exceeds) exactly `100 * pb > span * over_pct`.
            d = r - (base[i] >> 8)
            if sign_b[i]:
                pb = d * 100
            else:
                pb = -d * 100
            pw = -pb
            ab = span_b[i]
            aw = span_w[i]
            s = classes[i]
            if pb > ab * over or pw > aw * over:
                new = UNKNOWN
            elif s == BLACK:
                if pb + 100 > ab * leave:
                    new = BLACK
                elif pw + 100 > aw * enter:
                    new = WHITE
                else:
                    new = EMPTY
            elif s == WHITE:
                if pw + 100 > aw * leave:
                    new = WHITE
                elif pb + 100 > ab * enter:
                    new = BLACK
                else:
                    new = EMPTY
            elif pb + 100 > ab * enter:
                new = BLACK
            elif pw + 100 > aw * enter:
                new = WHITE
            else:
                new = EMPTY
            if new != s:
                changed = 1
            classes[i] = new
            if new == EMPTY:
                c = run[i]
                if c < settle:
                    run[i] = c + 1
                else:
                    b = base[i]
                    b += ((r << 8) - b) >> shift
                    lo = (cal[i] - drift[i]) << 8
                    hi = lo + (drift[i] << 9)
                    if b < lo:
                        b = lo
                    elif b > hi:
                        b = hi
                    base[i] = b
            else:
                run[i] = 0
        if changed:
            self._params[_CHANGED] = 1
        return nf

    # -- diagnostics (allocate; not for the scan path) -----------------------------------

    def fault_points(self):
        """Names of every faulty point, in scan order."""
        return [point_name(i, self.size) for i in range(self.points) if self.fault[i]]

    def health_rows(self):
        """The health map: one str per line (top first); '+' healthy, 'R' rail, 'F' frozen,
        'C' unusable calibration."""
        marks = {0: "+", FAULT_RAIL: "R", FAULT_FROZEN: "F", FAULT_CALIBRATION: "C"}
        size = self.size
        fault = self.fault  # (& 0x7F: a _NEW mark a scan cut short left, see _take_new_faults)
        return [
            "".join(marks[fault[r * size + c] & 0x7F] for c in range(size)) for r in range(size)
        ]
