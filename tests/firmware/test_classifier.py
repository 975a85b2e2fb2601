"""The per-point classifier (sensing/classifier.py): hysteresis, tracking, faults, formats."""

from array import array

from expect import raises
from ingboard.alerts import codes
from ingboard.sensing import classifier as C
from ingboard.sensing.calibration import calibration_bytes, parse_calibration
from ingboard.sensing.classifier import Classifier

E = C.DEFAULT_EMPTY
S = C.DEFAULT_SPAN


def _readings(n, value=E):
    return array("H", [value] * n)


def _noisy(buf, scan):
    # A live sensor never repeats bit for bit for long; +-1 count alternating keeps it honest.
    for i in range(len(buf)):
        buf[i] = buf[i] + (1 if (scan + i) % 2 else -1)


def _run(clf, buf, scans):
    for k in range(scans):
        r = array("H", buf)
        _noisy(r, k)
        clf.classify(r)


def test_default_calibration_reads_empty_black_and_white():
    clf = Classifier(size=5)
    r = _readings(25)
    r[0] = E + S  # A5
    r[24] = E - S  # E1
    assert clf.classify(r) == 0
    assert chr(clf.classes[0]) == "B"
    assert chr(clf.classes[24]) == "W"
    assert all(chr(c) == "." for c in clf.classes[1:24])


def test_hysteresis_enter_at_25_percent_leave_below_12():
    clf = Classifier(size=5)
    r = _readings(25)
    steps = [(20, "."), (26, "B"), (20, "B"), (13, "B"), (11, "."), (-20, "."), (-26, "W")]
    steps += [(-13, "W"), (-11, "."), (30, "B"), (-30, "W")]
    for k, (pct, want) in enumerate(steps):
        r[7] = E + S * pct // 100 + (k % 2)
        clf.classify(r)
        assert chr(clf.classes[7]) == want, (pct, want, chr(clf.classes[7]))


def test_per_point_calibration_with_black_below_empty():
    # A sensor mounted upside down: the three-level calibration absorbs the sign.
    clf = Classifier(size=5)
    clf.set_point(3, 30000, 22000, 38000)
    r = _readings(25)
    r[3] = 22500
    clf.classify(r)
    assert chr(clf.classes[3]) == "B"
    r[3] = 37000
    clf.classify(r)
    assert chr(clf.classes[3]) == "W"
    r[3] = 30100
    clf.classify(r)
    assert chr(clf.classes[3]) == "."


def test_over_range_reads_unknown_then_recovers():
    clf = Classifier(size=5)
    r = _readings(25)
    r[12] = E + S * 3  # 300 % of the span: a loose magnet, not a stone
    clf.classify(r)
    assert chr(clf.classes[12]) == "?"
    r[12] = E + S
    clf.classify(r)
    assert chr(clf.classes[12]) == "B"
    assert clf.fault[12] == 0


def test_dead_sensor_becomes_sensor_fault_once_and_game_continues():
    assert "sensor-fault" in codes()
    clf = Classifier(size=5, fault_scans=20)
    r = _readings(25)
    r[6] = 0  # B4 reads ground: dead or unplugged
    new = []
    for k in range(30):
        r[0] = E + S if k >= 25 else E + (k % 2)  # play goes on elsewhere
        count = clf.classify(r)
        for j in range(count):
            new.append(C.point_name(clf.new_faults[j], 5))
        assert chr(clf.classes[6]) == "?"
    assert new == ["B4"]
    assert clf.fault[6] == C.FAULT_RAIL
    assert chr(clf.classes[0]) == "B"
    r[6] = E  # even if it comes back, a faulty point stays '?' until faults are cleared
    clf.classify(r)
    assert chr(clf.classes[6]) == "?"
    assert clf.fault_points() == ["B4"]
    clf.clear_faults()
    clf.classify(r)
    assert chr(clf.classes[6]) == "." and clf.fault_points() == []


def test_short_rail_excursion_is_not_a_fault():
    clf = Classifier(size=5, fault_scans=20)
    r = _readings(25)
    for k in range(40):
        r[2] = 65535 if k % 25 < 19 else E + (k % 2)
        assert clf.classify(r) == 0
    assert clf.fault[2] == 0


def test_frozen_reading_is_a_fault_noise_is_not():
    clf = Classifier(size=5, frozen_scans=50)
    r = _readings(25)
    faults = 0
    for k in range(60):
        for i in range(25):
            r[i] = E + ((k + i) % 3)  # live sensors: noise
        r[9] = 33333  # E4 frozen
        faults += clf.classify(r)
    assert faults == 1
    assert clf.fault[9] == C.FAULT_FROZEN
    assert clf.fault_points() == ["E4"]


def test_unusable_calibration_marks_point_faulty():
    clf = Classifier(size=5)
    clf.set_point(0, 32000, 40000, 39000)  # black and white on the same side
    clf.set_point(1, 32000, 32300, 31700)  # span under min_span
    r = _readings(25)
    r[0] = 40000
    clf.classify(r)
    assert chr(clf.classes[0]) == "?" and chr(clf.classes[1]) == "?"
    assert clf.health_rows()[0] == "CC+++"
    clf.clear_faults()  # a bad calibration needs a new calibration, not a retry
    assert clf.fault[0] == C.FAULT_CALIBRATION


def test_baseline_follows_slow_drift_of_an_empty_point():
    clf = Classifier(size=5, settle_scans=5, track_shift=4)
    r = _readings(25)
    drift = S * 15 // 100  # the empty level creeps up by 15 % of the span
    r[4] = E + drift
    _run(clf, r, 200)
    assert chr(clf.classes[4]) == "."
    assert abs((clf.baseline[4] >> 8) - (E + drift)) < 20
    # A white stone now reads 30 % below the new empty level: only 15 % below calibration,
    # which without tracking would still read empty.
    r[4] = E + drift - S * 30 // 100
    clf.classify(r)
    assert chr(clf.classes[4]) == "W"


def test_baseline_drift_is_clamped():
    clf = Classifier(size=5, settle_scans=1, track_shift=2, drift_pct=10)
    r = _readings(25)
    r[4] = E + S * 20 // 100  # below the enter threshold, beyond the drift limit
    _run(clf, r, 300)
    assert (clf.baseline[4] >> 8) <= E + S * 10 // 100 + 1


def test_no_tracking_before_a_point_has_settled():
    clf = Classifier(size=5, settle_scans=50, track_shift=1)
    r = _readings(25)
    r[4] = E + S * 10 // 100
    _run(clf, r, 40)
    assert clf.baseline[4] == E << 8


def test_crosstalk_and_off_centre_stones_from_the_design():
    # physical.py (hardware_docs/design.md): a stone adds -1.14 % of its own centred signal to
    # the next point along its line, -0.99 % to the next line, -0.45 % diagonally (the
    # opposite sign); a stone 5 mm off centre gives 32 % of the centred signal. An empty point
    # ringed by eight black stones and a white stone 5 mm off centre must both classify
    # correctly.
    from ingboard import physical as ph

    size = 5
    clf = Classifier(size=size)
    stones = {}
    for name in ("B4", "C4", "D4", "B3", "D3", "B2", "C2", "D2"):
        stones[C.point_index(name, size)] = 1.0
    white = C.point_index("A1", size)
    r = _readings(size * size)
    for i in range(size * size):
        row, col = divmod(i, size)
        v = 0.0
        for j, strength in stones.items():
            jr, jc = divmod(j, size)
            dr, dc = abs(jr - row), abs(jc - col)
            if (dr, dc) == (0, 0):
                v += strength
            elif (dr, dc) == (0, 1):
                v += ph.CROSSTALK_ALONG_LINE_BP / 10000 * strength
            elif (dr, dc) == (1, 0):
                v += ph.CROSSTALK_NEXT_LINE_BP / 10000 * strength
            elif (dr, dc) == (1, 1):
                v += ph.CROSSTALK_DIAGONAL_BP / 10000 * strength
        r[i] = E + int(v * S)
    r[white] = E - S * ph.OFF_CENTRE_PCT[5] // 100
    clf.classify(r)
    assert chr(clf.classes[C.point_index("C3", size)]) == "."
    assert chr(clf.classes[white]) == "W"
    assert sum(1 for c in clf.classes if c == C.BLACK) == 8


def test_format_scan_rows_top_first_column_a_first():
    clf = Classifier(size=3)
    r = _readings(9)
    r[C.point_index("A3", 3)] = E + S
    r[C.point_index("C1", 3)] = E - S
    clf.classify(r)
    assert C.format_scan(clf.classes, 3) == "B../.../..W"
    out = bytearray(C.scan_line_length(3))
    assert C.format_scan_into(clf.classes, 3, out) is out
    assert bytes(out) == b"B../.../..W"


def test_format_scan_19x19_puts_q16_where_the_session_log_expects_it():
    classes = bytearray(b"." * 361)
    classes[C.point_index("Q16")] = C.BLACK
    rows = C.format_scan(classes).split("/")
    assert len(rows) == 19 and all(len(row) == 19 for row in rows)
    assert rows[19 - 16][C.COLUMNS.index("Q")] == "B"
    assert rows[3] == "...............B..."


def test_point_names_round_trip():
    for size in (9, 19):
        for i in range(size * size):
            assert C.point_index(C.point_name(i, size), size) == i
    assert C.point_name(0) == "A19" and C.point_name(360) == "T1"
    assert C.point_index("K10") == 9 * 19 + 9
    raises(ValueError, C.point_index, "I5")
    raises(ValueError, C.point_index, "A20")
    raises(ValueError, C.point_index, "K10", 9)


def test_calibration_file_round_trip_and_damage():
    n = 9
    empty = [32000 + i for i in range(n)]
    black = [41000 - i for i in range(n)]
    white = [23000 + 2 * i for i in range(n)]
    data = calibration_bytes(3, empty, black, white)
    assert len(data) == 8 + 6 * n + 2
    assert data[:4] == b"IGCL"
    size, e, b, w = parse_calibration(data)
    assert size == 3 and list(e) == empty and list(b) == black and list(w) == white
    damaged = bytearray(data)
    damaged[20] ^= 1
    raises(ValueError, parse_calibration, damaged)
    raises(ValueError, parse_calibration, data[:-1])
    raises(ValueError, parse_calibration, b"XXXX" + data[4:])
    clf = Classifier(size=3)
    clf.load_calibration(data)
    assert clf.cal_empty[4] == 32004
    raises(ValueError, Classifier(size=5).load_calibration, data)


def test_19x19_calibration_file_is_2176_bytes():
    n = 361
    data = calibration_bytes(19, [E] * n, [E + S] * n, [E - S] * n)
    assert len(data) == 2176


def test_bad_parameters_are_rejected():
    raises(ValueError, Classifier, 5, 10, 20)
    raises(ValueError, Classifier, 5, 25, 12, 90)
    raises(ValueError, Classifier, 5, settle_scans=256)  # an empty run is counted in a byte
    # A span times over_pct must stay within the native loop's 31 bits.
    raises(ValueError, Classifier, 5, over_pct=30001)
    assert Classifier(5, over_pct=30000).over_pct == 30000


class _Definition:
    # The classifier as its docstring defines it, one point at a time, every limit an exact
    # (unbounded) integer: Classifier keeps only the spans and compares in hundredths, and must
    # read every scan the same.
    def __init__(self, n, enter, leave, over, rail, fault_scans, frozen, settle, shift, drift):
        self.p = (enter, leave, over, rail, fault_scans, frozen, settle, shift, drift)
        self.cls = [C.EMPTY] * n
        self.fault = [0] * n
        self.base = [0] * n
        self.cal = [None] * n
        self.last = [0] * n
        self.same = [0] * n
        self.rail = [0] * n
        self.run = [0] * n

    def set_point(self, i, empty, black, white):
        enter, leave, over, _r, _f, _z, _s, _t, drift = self.p
        sb, sw = black - empty, white - empty
        ab, aw = abs(sb), abs(sw)
        self.base[i] = empty << 8
        self.cls[i] = C.EMPTY
        self.fault[i] = 0
        if (sb > 0) == (sw > 0) or ab < 1000 or aw < 1000:
            self.fault[i] = C.FAULT_CALIBRATION
            self.cls[i] = C.UNKNOWN
            ab = aw = 1000
        lim = [x * pct // 100 for x in (ab, aw) for pct in (enter, leave, over)]
        self.cal[i] = (empty, sb > 0, lim, (min(ab, aw) * drift // 100) << 8)

    def scan(self, readings):
        _e, _l, _o, rail, fault_scans, frozen, settle, shift, _d = self.p
        for i, r in enumerate(readings):
            if self.fault[i]:
                continue
            if r <= rail or r >= 0xFFFF - rail:
                self.rail[i] += 1
                self.run[i] = 0
                self.cls[i] = C.UNKNOWN
                if self.rail[i] >= fault_scans:
                    self.fault[i] = C.FAULT_RAIL
                continue
            self.rail[i] = 0
            if r == self.last[i]:
                self.same[i] += 1
                if self.same[i] >= frozen:
                    self.fault[i] = C.FAULT_FROZEN
                    self.cls[i] = C.UNKNOWN
                    continue
            else:
                self.same[i] = 0
                self.last[i] = r
            empty, up, (eb, lb, ob, ew, lw, ow), drift = self.cal[i]
            d = r - (self.base[i] >> 8)
            pb = d if up else -d
            pw = -pb
            s = self.cls[i]
            if pb > ob or pw > ow:
                new = C.UNKNOWN
            elif s == C.BLACK and pb >= lb or s != C.WHITE and pb >= eb:
                new = C.BLACK
            elif s == C.WHITE and pw >= lw or pw >= ew:
                new = C.WHITE
            elif s == C.WHITE and pb >= eb:
                new = C.BLACK
            else:
                new = C.EMPTY
            self.cls[i] = new
            if new != C.EMPTY:
                self.run[i] = 0
            elif self.run[i] < settle:
                self.run[i] += 1
            else:
                b = self.base[i]
                b += ((r << 8) - b) >> shift
                lo = (empty << 8) - drift
                self.base[i] = min(max(b, lo), lo + 2 * drift)


def test_limits_kept_in_two_bytes_read_as_the_exact_limits():
    # Spans up to the whole 16-bit range, over-range and drift limits far beyond 65535, and
    # readings anywhere in 0..65535 (rails, wild swings, long steady runs).
    x = [2463534242]

    def rnd(k):
        v = x[0]
        v ^= (v << 13) & 0xFFFFFFFF
        v ^= v >> 17
        v ^= (v << 5) & 0xFFFFFFFF
        x[0] = v
        return v % k

    for case in range(7):
        n = 25
        over = (120, 250, 400, 1000, 3000, 250, 30000)[case]
        drift = (25, 100, 300, 1000, 25, 250, 50)[case]
        settle = (0, 1, 3, 20, 255, 2, 4)[case]
        args = (25, 12, over, 1 + rnd(300), 1 + rnd(6), 2 + rnd(8), settle, 1 + rnd(8), drift)
        ref = _Definition(n, *args)
        clf = Classifier(
            5,
            enter_pct=25,
            leave_pct=12,
            over_pct=over,
            rail=args[3],
            fault_scans=args[4],
            frozen_scans=args[5],
            settle_scans=settle,
            track_shift=args[7],
            drift_pct=drift,
        )
        for i in range(n):
            empty = rnd(65536)
            black = (empty + 500 + rnd(65536)) % 65536 if rnd(4) else 65535 - rnd(3)
            white = rnd(65536) if rnd(3) else 0
            ref.set_point(i, empty, black, white)
            clf.set_point(i, empty, black, white)
        buf = array("H", [0] * n)
        for scan in range(120):
            for i in range(n):
                k = rnd(8)
                if k == 0 or scan % 17 == 0:
                    buf[i] = rnd(65536)
                elif k == 1:
                    buf[i] = 65535 if rnd(2) else 0
                elif k < 5:
                    buf[i] = (buf[i] + rnd(64)) % 65536
            clf.classify(buf)
            ref.scan(buf)
            assert list(clf.classes) == ref.cls, (case, scan)
            assert list(clf.fault) == ref.fault, (case, scan)
            assert list(clf.baseline) == ref.base, (case, scan)


def _grid_order(size=19):
    # drivers/grid.py's order: by group address, the groups a, a + 16 of every bank.
    n = size * size
    groups = (n + 15) // 16
    order = []
    ends = []
    for a in range(min(groups, 16)):
        for g in range(a, groups, 16):
            order += [p for p in range(g * 16 + 15, g * 16 - 1, -1) if p < n]
        ends.append(len(order))
    return array("H", order), ends


def test_scans_in_parts_of_another_split_and_whole_scans_between_them_classify_alike():
    # begin() writes the parts' ends once for an `ends` it has seen (the grid's, the same
    # every scan): a scan split otherwise, or a whole classify() between two scans in parts,
    # must still classify as a whole scan does.
    whole = Classifier(19, settle_scans=2, track_shift=3)
    mixed = Classifier(19, settle_scans=2, track_shift=3)
    order, ends = _grid_order()
    halves = [ends[7], ends[-1]]  # the same order in two parts
    for k in range(12):
        r = _readings(361)
        for i in range(361):
            r[i] = E + S if (i + k) % 5 == 0 else E - S if (i * k) % 7 == 1 else E + (i % 9)
        nw = whole.classify(r)
        if k % 3 == 2:
            nm = mixed.classify(r)
        else:
            split = ends if k % 3 == 0 else halves
            mixed.begin(r, order, split)
            for a in range(len(split)):
                mixed.part(a)
            nm = mixed.end()
        assert nm == nw and mixed.classes == whole.classes, k
        assert list(mixed.baseline) == list(whole.baseline), k


def test_a_scan_classified_in_parts_is_the_scan_classified_whole():
    # Classifier.begin/part/end (each part in a power-on wait of the grid's scan): the same
    # classes, baselines, counters and new faults - in point order - as classify(), scan
    # after scan, through stones, over-range, rails until faults and frozen sensors.
    whole = Classifier(19, fault_scans=4, frozen_scans=6, settle_scans=2, track_shift=3)
    parts = Classifier(19, fault_scans=4, frozen_scans=6, settle_scans=2, track_shift=3)
    order, ends = _grid_order()
    faults_seen = 0
    kinds = set()
    changes = set()
    for k in range(30):
        r = _readings(361)
        for i in range(361):
            kind = i % 7
            if kind == 1:
                r[i] = E + S if (k // 3) % 2 else E + (k % 3)
            elif kind == 2:
                r[i] = E - S if k % 5 in (2, 3) else E - (k % 2)
            elif kind == 5:
                r[i] = E + S * 3 if k % 4 == 1 else E + (k % 2)  # over-range
            elif kind == 3 and i > 200:
                r[i] = 10 if i % 2 else 65530  # at a rail: faults, several in one scan
            elif kind == 4 and i < 100:
                r[i] = E + 77  # frozen
            else:
                r[i] = E + ((k * i) % 400) - 200
        before = bytes(whole.classes)
        nw = whole.classify(r)
        parts.begin(r, order, ends)
        for a in range(len(ends)):
            parts.part(a)
        np_ = parts.end()
        # `changed`: whether a class changed in the scan (the app's test of a new scan line)
        assert whole.changed == parts.changed == (bytes(whole.classes) != before), k
        changes.add(whole.changed)
        assert np_ == nw == parts.new_fault_count
        assert list(parts.new_faults[:np_]) == list(whole.new_faults[:nw])
        assert parts.classes == whole.classes and parts.fault == whole.fault
        assert list(parts.baseline) == list(whole.baseline)
        faults_seen = max(faults_seen, nw)
        kinds |= set(whole.classes)
    assert parts.scans == whole.scans == 30
    assert faults_seen > 1  # faults found several at once, put back in point order
    assert kinds == {ord(c) for c in ".BW?"}
    assert changes == {0, 1}


def test_a_class_changed_outside_a_scan_is_a_change_of_the_next_scan():
    # set_point and clear_faults change classes between scans: the next scan says so even
    # when it changes none itself.
    clf = Classifier(5, fault_scans=2)
    r = _readings(25)
    for i in range(25):
        r[i] = E
    r[6] = 10  # at a rail: a fault after two scans
    clf.classify(r)
    clf.classify(r)
    clf.classify(r)
    assert chr(clf.classes[6]) == "?" and not clf.changed  # faulty, nothing changes now
    clf.clear_faults()  # reads '.' until its rail run makes it '?' again
    r[6] = E
    clf.classify(r)
    assert clf.changed and chr(clf.classes[6]) == "."
    clf.classify(r)
    assert not clf.changed
    clf.set_point(6, E, E + S, E + S)  # a calibration that cannot work: '?' from now on
    assert chr(clf.classes[6]) == "?"
    clf.classify(r)
    assert clf.changed


def test_a_scan_cut_short_after_a_new_fault_leaves_the_health_map_and_later_faults_whole():
    # A reading that is no number (a driver gone wrong) ends the pure loop with an exception
    # after it has marked B4's new fault: the mark must neither break the health map nor make
    # the next new fault's scan fail (review of issue 32's fault marks).
    clf = Classifier(size=5, fault_scans=2)
    r = [E] * 25
    r[6] = 0  # B4 reads ground
    clf.classify(array("H", r))
    cut = list(r)
    cut[20] = None  # read after B4 in the scan's order
    raises(TypeError, clf.classify, cut)
    rows = clf.health_rows()
    assert len(rows) == 5 and "".join(rows).count("R") == 1 and "".join(rows).count("+") == 24
    r[12] = 0  # C3 now reads ground too
    new = []
    for _ in range(2):
        count = clf.classify(array("H", r))
        new += [C.point_name(clf.new_faults[j], 5) for j in range(count)]
    assert sorted(new) == ["B4", "C3"]  # each once: B4's scan was cut short, it comes now
    assert clf.fault[6] == C.FAULT_RAIL and clf.fault[12] == C.FAULT_RAIL
    assert sorted(clf.fault_points()) == ["B4", "C3"]
