"""A scan line read row by row (Tracker.scan reads only the rows that changed since the last
line) against the same board read whole from the classifier's bytes (Tracker.scan_codes):
random games of stones put down, lifted, flickering and unreadable, on 9x9 and 19x19, give the
same events and the same view of the sensors at every scan. CPython and MicroPython."""

from ingboard.tracking.tracker import Tracker

CHARS = "..BW?"


class _Rng:
    """A small seeded generator (MicroPython's random has no Random class)."""

    def __init__(self, seed):
        self.x = seed * 2654435761 % (1 << 30) + 1

    def randrange(self, n):
        self.x = (self.x * 1103515245 + 12345) % (1 << 30)
        return (self.x >> 8) % n

    def choice(self, seq):
        return seq[self.randrange(len(seq))]


def _play(size, seed, scans):
    rng = _Rng(seed)
    config = {"size": size, "rules": "ing1991"}
    by_rows = Tracker(config)
    by_codes = Tracker(config)
    rows = [["."] * size for _ in range(size)]
    t = 0
    for k in range(scans):
        # Most lines change one point (a stone down, one lifted); some several, some none.
        changes = rng.choice((0, 1, 1, 1, 2, 5))
        for _ in range(changes):
            rows[rng.randrange(size)][rng.randrange(size)] = rng.choice(CHARS)
        t += rng.choice((40, 40, 80, 120, 400))
        line = ["".join(r) for r in rows]
        got = by_rows.scan(t, line)
        want = by_codes.scan_codes(t, "".join(line).encode())
        assert got == want, (size, seed, k)
        assert by_rows.seen == by_codes.seen and by_rows.since == by_codes.since, (size, seed, k)
        assert by_rows.next_deadline() == by_codes.next_deadline(), (size, seed, k)
        if k % 5 == 4:
            # A press now and then: a pass or a move confirmed, on both the same way.
            color = by_rows.game.to_play
            assert by_rows.press(t, color) == by_codes.press(t, color), (size, seed, k)


def test_scan_rows_read_as_changed_equal_the_whole_board_9x9():
    for seed in range(6):
        _play(9, seed, 120)


def test_scan_rows_read_as_changed_equal_the_whole_board_19x19():
    for seed in range(2):
        _play(19, seed, 80)


def test_a_caller_changing_its_rows_list_after_a_scan_is_read_again():
    tracker = Tracker({"size": 9, "rules": "ing1991"})
    rows = ["." * 9] * 9
    tracker.scan(0, rows)
    rows[4] = "....B...."  # the same list object, changed in place
    tracker.scan(40, rows)
    assert tracker.seen[tracker.order[4 * 9 + 4]] == 1
