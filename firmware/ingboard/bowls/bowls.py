"""The Ing measuring bowls on load cells: the Bowls of a set, made of three parts - weighing
(weighing.py: readings into stone counts), the 180 checks (set_checks.py) and the reconciliation
of the bowls with the board (reconciliation.py) - each a mixin that creates its own state in its
`_init_<part>()`, all of them one object; this module adds the alerts they raise and what the
journal keeps of them (snapshot/restore, which may put back any part's state after a power cut).

API (the tracker): Bowls(config_bowls, size); feed(color, grams, now_ms) per reading
(quiet(color, grams, now_ms): True when feed would change nothing);
fault(color, now_ms, why) when a driver reports no reading; lid(owner, grams, now_ms) per reading
of a lid's own load cell; on_board(black, white, now_ms,
to_play) after each accepted move or removal; check(phase, now_ms, black=None, white=None)
-> the `bowls` event; poll() -> alert events; count(color) -> (n or None); snapshot()/restore();
snapshot_key() (what the snapshot is made of) and same_key(key) (whether it is still key).
Colours are "B"/"W" or the board's BLACK (1) / WHITE (2).
"""

from micropython import const

from ingboard.alerts import alert_text
from ingboard.bowls.reconciliation import PASS_STONES, PRISONERS, Reconciliation
from ingboard.bowls.set_checks import PHASES, SetChecks
from ingboard.bowls.weighing import (
    MAX_READING_G,
    Weighing,
    plausible,
    to_grams,
)

# What the rest of the firmware takes from here (the app's inputs: plausible, MAX_READING_G).
__all__ = (
    "Bowls",
    "plausible",
    "MAX_READING_G",
    "PHASES",
    "PRISONERS",
    "PASS_STONES",
)

_MAX_ALERTS = const(16)
_CONFIG_KEYS = (
    "B",
    "W",
    "window",
    "bias_g",
    "creep_g_per_min",
    "zero_limit_g",
    "persist_ms",
    "prisoners",
    "pass_stones",
)


def _same_counts(counts, ended, a, b):
    # snapshot_key()'s counts: (a.kept, b.kept) from the count on, None before.
    if not ended:
        return counts is None
    return counts is not None and counts[0] == a.kept and counts[1] == b.kept


class Bowls(Weighing, SetChecks, Reconciliation):
    """Both bowls of a set; see the parts' modules for the model and the API above."""

    def __init__(self, config_bowls=None, size=19, prisoners_returned=False, pass_stones="none"):
        if isinstance(size, bool) or not isinstance(size, int) or not 5 <= size <= 19:
            raise ValueError("board size must be an int 5..19, not %r" % (size,))
        cfg = {} if config_bowls is None else config_bowls
        if not isinstance(cfg, dict):
            raise TypeError("bowls config must be a dict, not %r" % (cfg,))
        for key in cfg:
            if key not in _CONFIG_KEYS:
                raise ValueError("unknown bowls config key %r" % (key,))
        self.total = (size * size - 1) // 2  # 1991 Art. 12: half the points minus one
        self.alerts = []
        self._init_weighing(cfg)
        self._init_checks()
        self._init_reconciliation(cfg, prisoners_returned, pass_stones)

    # ---------------------------------------------------------------- alerts, persistence
    def _alert(self, code, detail, color, now_ms):
        if len(self.alerts) >= _MAX_ALERTS:
            self.alerts.pop(0)
        self.alerts.append(
            {
                "type": "alert",
                "t": now_ms,
                "code": code,
                "points": [],
                "color": color,
                "text": alert_text(code) + " " + detail,
            }
        )

    def poll(self):
        """The alerts raised since the last poll (oldest first)."""
        out = self.alerts
        self.alerts = []
        return out

    def snapshot_key(self):
        """What snapshot() is made of, as a tuple of the bowls' own values (no float or dict
        made): equal keys give equal snapshots. The journal compares it at every sync and
        makes the snapshot only when it changed (issue 20: a bowl reading's cost)."""
        a, b = self.bowls
        # From the count on the counts are in it too: a new count is a new snapshot (see
        # snapshot(), "ref"). During play they are not: a record at every stone taken would
        # cost more than it keeps.
        counts = (a.kept, b.kept) if self.ended else None
        # A weighed lid's count is in it all game: it changes only as stones are dropped in or
        # taken out (a capture, the fill-in), never at every reading; and whether the lid's
        # last reading was a certain count (a hand in the lid makes it uncertain).
        return (
            a.zero,
            a.spread_pct,
            a.w180,
            a.verified,
            a.temp_c,
            a.pass_out,
            b.zero,
            b.spread_pct,
            b.w180,
            b.verified,
            b.temp_c,
            b.pass_out,
            a.lid_kept,
            a.lid_n < 0,
            b.lid_kept,
            b.lid_n < 0,
            counts,
        )

    def same_key(self, key):
        """key == snapshot_key(), without the key made (a tuple of 17 at every journal sync:
        the journal asks this first and makes the key only when it changed)."""
        if key is None:
            return False
        a, b = self.bowls
        return (
            key[0] == a.zero
            and key[1] == a.spread_pct
            and key[2] == a.w180
            and key[3] == a.verified
            and key[4] == a.temp_c
            and key[5] == a.pass_out
            and key[6] == b.zero
            and key[7] == b.spread_pct
            and key[8] == b.w180
            and key[9] == b.verified
            and key[10] == b.temp_c
            and key[11] == b.pass_out
            and key[12] == a.lid_kept
            and key[13] == (a.lid_n < 0)
            and key[14] == b.lid_kept
            and key[15] == (b.lid_n < 0)
            and _same_counts(key[16], self.ended, a, b)
        )

    def snapshot(self):
        """Enrolment and zero of both bowls, JSON-ready, for the journal (keep snapshot_key()
        in step with what it reads). From the count on each bowl's last confident count goes
        with them ("ref": [count, plateau g, its standard error g, board time]): a power cut
        between the count and the after-count check (Ing 1991 Art. 9 "Counting" (3): the check "to
        confirm that the game was counted correctly") then loses neither the check nor its
        counts - see restore(). A lid on its own load cell has its last confident count with
        its weight and whether its last reading was certain ("lid": [count, g, certain]) all
        game long: after a power cut a lid holding many
        stones counts on by the stones dropped in or taken out, as it did (a dozen stones
        weighed from nothing are no certain count), so its prisoners are never taken for lost
        stones, and the after-count check is the uncut game's."""
        snap = {}
        keep_ref = self.ended
        for bowl in self.bowls:
            s = {"zero_g": to_grams(bowl.zero), "spread_pct": bowl.spread_pct}
            if bowl.w180:
                s["w180_g"] = to_grams(bowl.w180)
                if bowl.verified:
                    s["verified"] = True
            if bowl.temp_c is not None:
                s["temp_c"] = bowl.temp_c
            if bowl.pass_out:
                s["pass_out"] = bowl.pass_out
            lid = bowl.lid_kept
            if lid is not None:
                s["lid"] = [lid[0], to_grams(lid[1]), bowl.lid_n >= 0]
            kept = bowl.kept
            if keep_ref and bowl.w180 and kept is not None:
                s["ref"] = [kept[0], to_grams(kept[1]), to_grams(kept[2]), kept[3]]
            snap[bowl.name] = s
        return snap

    def restore(self, snap):
        """Undo of snapshot(): enrolment and zero come back; counts re-settle from readings.

        A bowl restored with its last confident count ("ref") goes on from that plateau: it is
        the reference of the relative count again (a bowl half full is counted to the stone
        only by the stones taken and returned since a confident count), and the readings'
        window starts out holding it, so a first reading after the restart that agrees with it
        within the noise settles the bowl at once instead of after a whole window (the players
        may begin to put the stones away before a whole window is read: the after-count check
        must come first). A reading a stone or more away from it (stones moved while the power
        was off) unsettles the bowl until a whole window of new readings agrees. The count
        stays uncertain until a new reading has been weighed."""
        # bowls_restore.py: loaded for a recovery only and dropped after it with the journal's
        # reader (app/recorder.py); on the stock image its code would otherwise be heap.
        from ingboard.bowls.bowls_restore import BowlsRestore

        BowlsRestore.restore(self, snap)
