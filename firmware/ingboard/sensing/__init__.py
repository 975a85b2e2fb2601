"""Raw readings into what a point holds: the grid's samples classified as empty, black, white or
unknown, per point, with the calibration that makes that possible. Knows nothing of games."""
