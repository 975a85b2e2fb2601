"""The Ing measuring bowls: load-cell readings into stone counts (weighing), the 180-stone set
checks (set_checks) and the reconciliation of the bowls with the board - stones taken and
returned, prisoners, the lid, pass stones (reconciliation) - as one Bowls object (bowls)."""
