"""The set's physical constants, in one table: the dimensions of the board, stones and magnets,
and the figures of the parts that sense them.

Everything physical that the firmware, the host tools, the device twin, the generated drawings
and boards (`make hardware`) and the design notes (hardware_docs/) need is read from here, so
they cannot disagree. Plain ints (lengths in micrometres, fields in microtesla, masses in
milligrams) so the module costs little on the board and imports on CPython and MicroPython
alike; no code.

Sources: the rule texts for the geometry (seed 000 = Ing SST Laws 1991, Art. 11 "Lines",
Art. 12 "Standards"; seed 003 = Goe Rules 1996, Rule 11, Rule 12), the parts' datasheets and
hardware_docs/design.md for the rest (each line says which).
"""

# -- the board (seed 000 Art. 11 "Lines": vertical lines 2.21 cm apart, horizontal 2.36 cm;
#    45 cm vertically, 42 cm horizontally, at least 2.5 cm thick)
SIZE = 19
PITCH_X_UM = 22100  # between vertical lines, i.e. along a horizontal line (1991)
PITCH_Y_UM = 23600  # between horizontal lines (1991)
PITCH_X_1996_UM = 22000  # seed 003 Rule 11 "Lines"
PITCH_Y_1996_UM = 23000
BOARD_W_UM = 420000  # horizontally (seed 000 Art. 11)
BOARD_H_UM = 450000  # vertically
BOARD_MIN_THICK_UM = 25000

# -- the stones (seed 000 Art. 12 "Standards": 2.18 cm across, 1.05 cm thick, 6.5 g)
STONE_D_UM = 21800
STONE_THICK_UM = 10500
STONE_MG = 6500
STONES_PER_COLOUR = 180  # seed 000 Art. 12 "Number of stones": (361 - 1) / 2

# -- the magnet in each stone (hardware_docs/design.md "Stones"): 6 x 1 mm N35 NdFeB disc,
#    axially magnetised; Black south pole down, White north pole down
MAGNET_D_UM = 6000
MAGNET_THICK_UM = 1000
MAGNET_BR_MT = 1200  # remanence of N35 (1.17-1.21 T)
MAGNET_MG = 210

# -- the wood over each sensor (design.md "Field"): nominal depth of the pocket's floor below
#    the playing surface, and the tolerance the field table allows
WOOD_OVER_SENSOR_UM = 5000
WOOD_TOLERANCE_UM = 300
