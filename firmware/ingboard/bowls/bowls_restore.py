"""The Bowls put back after a power cut: the other half of the journal's contract (bowls.py's
snapshot()), loaded only for a recovery (Bowls.restore) and dropped after it with the journal's
reader (app/recorder.py, gc_policy.drop): on the stock image its code would otherwise be heap
for the whole game."""

from ingboard.bowls.weighing import MAX_SE_MG, to_mg


class BowlsRestore:
    """restore() of a Bowls, called as BowlsRestore.restore(bowls, snap) (bowls.py; it may
    assign every part's state, as the journal's contract)."""

    def restore(self, snap):
        """See Bowls.restore."""
        for bowl in self.bowls:
            s = snap.get(bowl.name, {}) if isinstance(snap, dict) else None
            if not isinstance(s, dict):
                raise TypeError("bowls snapshot must be a dict of dicts, not %r" % (snap,))
            bowl.zero = to_mg(s.get("zero_g", 0), "zero_g")
            if "w180_g" in s:
                self._enrol(bowl, to_mg(s["w180_g"], "w180_g"))
            bowl.verified = bool(s.get("verified", False))
            if "spread_pct" in s:
                bowl.spread_pct = s["spread_pct"]
            bowl.temp_c = s.get("temp_c")
            bowl.pass_out = s.get("pass_out", 0)
            bowl.filled = 0
            bowl.settled = False
            bowl.count = -1
            bowl.last_eval = None
            _restore_lid(bowl, s.get("lid"))
            ref = s.get("ref")
            if ref is not None and bowl.w180:
                _restore_ref(bowl, ref)
                self.ended = True


def _restore_ref(bowl, ref):
    # snapshot()'s "ref" of one bowl: the relative count's reference, and the readings' window
    # holding that plateau (Bowls.restore).
    if not isinstance(ref, list) or len(ref) != 4:
        raise TypeError("bowls snapshot ref must be [count, grams, grams, ms], not %r" % (ref,))
    n, p, se, t = ref
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= bowl.total:
        raise ValueError("bowls snapshot ref count out of range: %r" % (n,))
    if isinstance(t, bool) or not isinstance(t, int):
        raise TypeError("bowls snapshot ref time must be an int, not %r" % (t,))
    p = to_mg(p, "ref plateau")
    bowl.ref_n = n
    bowl.ref_p = p
    bowl.ref_se = min(MAX_SE_MG, max(0, to_mg(se, "ref error")))
    bowl.ref_t = t
    bowl.kept = (n, p, bowl.ref_se, t)
    for i in range(bowl.window):
        bowl.vals[i] = p
    bowl.head = 0
    bowl.filled = bowl.window


def _restore_lid(bowl, lid):
    # snapshot()'s "lid" of one set (the stones in the opponent's lid): the reference the next
    # reading is counted from (Reconciliation.lid), and the lid's count until then - as last
    # journaled, or uncertain if the last reading was. None: no lid cell has given a certain
    # count.
    if lid is None:
        bowl.lid_n = -1
        bowl.lid_ref_n = 0
        bowl.lid_ref_mg = 0
        bowl.lid_kept = None
        return
    if not isinstance(lid, list) or len(lid) != 3:
        raise TypeError("bowls snapshot lid must be [count, grams, certain], not %r" % (lid,))
    n = lid[0]
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= bowl.total:
        raise ValueError("bowls snapshot lid count out of range: %r" % (n,))
    mg = to_mg(lid[1], "lid weight")
    bowl.lid_n = n if lid[2] else -1
    bowl.lid_ref_n = n
    bowl.lid_ref_mg = mg
    bowl.lid_kept = (n, mg)
