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

# -- the field of a stone's magnet at the sensor (design.md "Field"): on the magnet's axis, the
#    flux density normal to the board at the Hall element, for the wood left over the sensor.
#    The Hall element sits 0.7 mm inside the package and the lacquer adds 0.3 mm: the magnet's
#    face is 1 mm further from it than the wood is thick. Computed from the axially magnetised
#    disc (B = Br/2 [(z+L)/sqrt(R^2+(z+L)^2) - z/sqrt(R^2+z^2)], z the gap to the element;
#    tests/host/test_physical.py recomputes every figure from the dimensions above).
ELEMENT_BELOW_WOOD_UM = 1000  # package (0.7 mm) + lacquer (0.3 mm)
STONE_FIELD_DEPTH_UM = (4000, 5000, 6000)  # the wood over the sensor: thin, nominal, thick
STONE_FIELD_UT = (22200, 14800, 10300)  # at those depths (the magnet's face 5, 6, 7 mm away)
STONE_FIELD_NOMINAL_UT = 14800  # at WOOD_OVER_SENSOR_UM (the middle line)
# At the tolerance's limits (WOOD_OVER_SENSOR_UM -/+ WOOD_TOLERANCE_UM): 16.7 and 13.2 mT.
STONE_FIELD_TOL_UT = (16700, 13200)

# A stone on a neighbouring point: its magnet's return flux, so the OPPOSITE sign of the
# stone's own field on its point (negative), in hundredths of a percent of a centred stone's
# field (dipole far field at the nominal depth). Eight neighbours of one colour shift a point
# by about -6 %: toward the other colour.
CROSSTALK_ALONG_LINE_BP = -114  # the next point along a line (22.1 mm)
CROSSTALK_NEXT_LINE_BP = -99  # the next line (23.6 mm)
CROSSTALK_DIAGONAL_BP = -45  # the diagonal neighbour (32.3 mm)
# A stone off its point: the share of the centred field left, per mm off centre (0..6 mm).
OFF_CENTRE_PCT = (100, 96, 83, 66, 48, 32, 19)

# -- the Hall sensor: TI DRV5055A2 (datasheet SBAS640): ratiometric, VCC/2 at no field
SUPPLY_MV = 3300
SENSOR_UV_PER_MT = 30000  # A2 at VCC = 3.3 V: 30 mV/mT (50 mV/mT at 5 V)
SENSOR_RANGE_UT = 44000  # linear range at 3.3 V (+-44 mT)
SENSOR_RAIL_MARGIN_MV = 200  # the output swings to 0.2 V of either rail
SENSOR_NOISE_NT_RTHZ = 130  # input-referred noise density
SENSOR_BANDWIDTH_HZ = 20000
SENSOR_NOISE_UT = 23  # rms over the bandwidth: 130 nT/sqrt(Hz) * sqrt(20 kHz * pi / 2)
SENSOR_T_ON_TYP_US = 175  # power-on time
SENSOR_T_ON_MAX_US = 330
SENSOR_GAIN_TOL_PCT = 5  # sensitivity tolerance of one part against another (the twin's spread)
SENSOR_OFFSET_TOL_MV = 30  # quiescent offset spread (the twin's)
SENSOR_MA = 6  # supply current of one sensor

# The ADC's view (read_u16: 0..65535 over SUPPLY_MV, referenced to the same supply).
ADC_FULL_COUNTS = 65536
EMPTY_COUNTS = 32768  # VCC/2
# A centred stone at the nominal depth: 14.8 mT * 30 mV/mT = 444 mV = 8818 counts. The
# classifier's default span without a calibration file (core/classifier.py DEFAULT_SPAN).
STONE_SPAN_COUNTS = 8818
COUNTS_PER_MT = 596  # 30 mV/mT of 3300 mV over 65536 counts
SENSOR_NOISE_COUNTS = 14  # SENSOR_NOISE_UT in counts (rms)

# -- the bowls: two straight-bar load cells in parallel under each platform into one HX711
LOAD_CELL_RATED_G = 2000
LOAD_CELL_UV_PER_V = 1000  # 1 mV/V at the rated load
LOAD_CELLS_PER_BOWL = 2
HX711_GAIN = 128
HX711_BITS = 24
HX711_SPS = 10  # RATE low
HX711_NOISE_NV = 50  # input-referred rms at gain 128, 10 SPS (datasheet)
HX711_SETTLE_PERIODS = 4  # conversions after power-up or a channel change
# Counts per gram of load on the platform: the two bridges averaged, each with half the load:
# (1 mV/V * 3.3 V / 2000 g) / 2 = 0.825 uV/g; full scale +-0.5 * 3.3 V / 128 = +-12.9 mV over
# +-2**23 counts: 650.8 counts/uV -> 537 counts/g; one stone (6.7 g) = 5.5 uV.
HX711_COUNTS_PER_G = 537
HX711_NOISE_COUNTS = 33  # HX711_NOISE_NV in counts
