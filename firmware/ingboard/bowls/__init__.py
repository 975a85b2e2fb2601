"""The Ing measuring bowls: load-cell readings into stone counts, the 180-stone set checks and the
reconciliation of bowls with the board."""
