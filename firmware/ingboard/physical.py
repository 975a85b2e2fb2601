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

# -- the sensor (DRV5055 datasheet, DBZ = SOT-23 package drawing; design.md "Field")
SENSOR_TOP_UM = 1200  # top of the package above the PCB: 1.12 mm max body + solder
HALL_ELEMENT_UM = 700  # Hall element below the package's top face (design.md "Field")
STONE_SEAL_UM = 300  # magnet face to the board surface: seal over the magnet + lacquer (design.md)

# -- the board blank as built (hardware/mech drawings; design choices inside the rules above)
BOARD_THICK_UM = 45000  # a table board: the strips' channels and, under the middle, the spine
# Depths are heights above the playing surface: the blank lies face down on a flat spoilboard
# and every pocket is cut down to a Z measured from it, so the blank's own thickness and
# flatness never enter the wood left over the sensors (WOOD_OVER_SENSOR_UM, WOOD_TOLERANCE_UM).
TOOL_D_UM = 6000  # the end mill of the channels' details; square corners get dog-bones of it

# -- the sensor strips: one PCB per horizontal line, 19 sensors at PITCH_X_UM along it, the
#    strip running along the grain (wood moves ~0.01 % along the grain, up to ~1 % across it:
#    each strip lies in its own channel, so the strips move apart with the wood, never bend).
#    hardware/electronics draws the PCB to these, hardware/mech the channels and clips.
STRIP_W_UM = 17000  # 6.1 mm of wood (a rib) between two channels at 23.6 mm
# Strip edge beyond the centres of the outer sensors: the outer lines are 11.1 mm from the
# blank's left and right edges, so 5 mm leaves 5.85 mm of wood at the channel's end.
STRIP_END_UM = 5000
PCB_THICK_UM = 1600  # JLCPCB's default, both boards
# The sensor line is the strip's centre line: the outer lines are 12.6 mm from the blank's top
# and bottom edges, so a strip may reach at most ~8.6 mm either side of its sensors.
STRIP_SENSOR_Y_UM = 8500  # from the strip's edge toward line 19
STRIP_KEEPIN_W_UM = 6000  # parts on the top (stone) face only in this band on the sensor line
# M3 holes (NPTH 3.2 mm) between columns (2,3), (6,7), (11,12), (15,16) = these half pitches
# from the centre, offset from the sensor line toward line 1; the clips' 2 mm pins float in
# them (+-0.6 mm: FR4 14 ppm/K against wood along the grain 3-5 ppm/K and <= 0.1 % moisture
# swing move <= 0.25 mm over 200 mm), so the strip is held up, never strained.
STRIP_HOLES_HALF_PITCH = (-13, -5, 5, 13)
STRIP_HOLE_D_UM = 3200
STRIP_HOLE_OFFSET_UM = 5000
STRIP_CONNECTOR_W_UM = 56000  # 40-way header on the bottom face, centred under column K
# Machining clearances (hobby CNC router, +-0.1 mm): the channel is the strip plus this on every
# side; the groove over the parts band is the band plus GROOVE_CLEARANCE either side.
CHANNEL_CLEARANCE_UM = 250
GROOVE_CLEARANCE_UM = 1000
SEAT_GAP_UM = 0  # sensor top to groove floor with the tallest package (SENSOR_TOP_UM)

# -- the controller board ("spine", hardware/electronics) under the middle of the board, with
#    the battery; it lies in a pocket of its own, the strips' ribbons dropping straight to it
SPINE_W_UM = 150000  # what the controller's routing needs beside its 19 connectors
SPINE_L_UM = 438000
SPINE_POCKET_Z_UM = 18000  # the pocket's floor: 27 mm of room for the spine, 18650 and plugs
# The spine lies components up (toward the playing surface), its y = 0 end at line 19. The
# cables' connectors sit on its right edge (x = SPINE_W_UM, the board's right seen from above),
# their openings to that edge: (reference, centre of the body along the edge from y = 0, body
# width along the edge), as hardware/electronics/controller.py places them (RJ45 J20-J23:
# CLOCK B, CLOCK W, BOWL B, BOWL W; J26 the USB-C receptacle). tests/host/test_mech_drawings.py
# checks them against the committed controller board.
SPINE_CABLE_JACKS_UM = (
    ("J20", 262448, 16510),
    ("J21", 282448, 16510),
    ("J22", 302448, 16510),
    ("J23", 322448, 16510),
    ("J26", 340000, 8940),
)
RJ45_PLUG_W_UM = 16000  # a Cat 5e plug with its boot, across
RJ45_PLUG_L_UM = 35000  # the plug and its boot beyond the jack's face
USB_C_PLUG_W_UM = 12350  # the USB-C plug's overmould, across (Type-C spec, maximum)
# The cables' exit, from the spine pocket out through the board's right edge: as long as the
# row of jacks with their plugs plus this either side, then widened to the middle of the next
# channel so no rib is cut part-way; its floor is the spine pocket's, so the clips on the ribs
# it crosses are the spine's clips.
CABLE_EXIT_CLEARANCE_UM = 1000
CABLE_EXIT_Z_UM = SPINE_POCKET_Z_UM

# -- the strip clips (printed, hardware/mech/scad/strip-clip*.scad): a bar on the rib beside
#    the strip's holes, two screws along the rib (along the grain), an arm to a post under the
#    hole, a foam pad on the post pressing the strip up against the channel's shoulders, a pin
#    in the hole; the clips of lines 1 and 2 share one part with two posts
CLIP_BAR_W_UM = 5500  # on a 6.1 mm rib
CLIP_BAR_L_UM = 26000
CLIP_BAR_THICK_UM = 3000  # sits in a pocket of its own depth, flush
CLIP_SCREW_SPAN_UM = 18000  # between its two screws, along the rib
CLIP_POST_W_UM = 6000
CLIP_PIN_D_UM = 2000
CLIP_FOAM_UM = 1500  # closed-cell foam tape on the post's top: the spring (a rigid post would
CLIP_PRELOAD_UM = 500  # press ~100 N); compressed by this much
CLIP_SCREW_D_UM = 2500  # 2.5 mm wood screws (pan head) into the 6.1 mm ribs
CLIP_PILOT_D_UM = 1600
CLIP_PILOT_DEPTH_UM = 12000  # from the seat's floor (2.5 x 16 mm screws) ...
CLIP_PILOT_MIN_Z_UM = 8000  # ... but never nearer the playing surface (2.5 x 10 over the spine)

# -- the magnet recess in a stone (stones.md) and the jigs (hardware/mech/scad)
MAGNET_RECESS_D_UM = 6200  # 6.0 mm disc + glue
MAGNET_RECESS_DEPTH_UM = MAGNET_THICK_UM + 200  # magnet + the seal, flush with the base
DRILL_BUSHING_OD_UM = 10000  # DIN 179 drill bushing, 6.2 mm bore (or the printed bore alone)
DRILL_BUSHING_L_UM = 12000
STONE_EDGE_UM = 1500  # cast stones (stones.md): the straight edge below the dome

# -- casting stones (stones.md): densities in mg per cm3 (datasheet typical values)
EPOXY_DENSITY = 1150  # clear epoxy casting resin, cured
BARITE_DENSITY = 4480  # barium sulfate powder (white, non-magnetic)
BRASS_DENSITY = 8500  # brass CuZn39Pb3 (non-magnetic)
STONE_MG_MAX = 7000  # seed 003 Rule 12 "Weight": 6.5 to 7 g

# -- the bowl platform (design.md "Bowls"): two 2 kg straight-bar cells, 80 x 12.7 x 12.7 mm,
#    two M4 holes at each end (typical of 1-5 kg bar cells: check yours against these)
LOAD_CELL_L_UM = 80000
LOAD_CELL_W_UM = 12700
LOAD_CELL_HOLE_PITCH_UM = 15000  # between the two holes of one end
LOAD_CELL_HOLE_END_UM = 5000  # outer hole centre from the cell's end
LOAD_CELL_HOLE_D_UM = 4300  # M4 clearance
LOAD_CELL_SPAN_UM = 70000  # between the two cells' centre lines
PLATFORM_D_UM = 160000  # the top plate the bowl stands on
PLATFORM_BASE_UM = 180000  # the base plate (square)
PLATFORM_PLATE_UM = 6000  # thickness of each plate
PLATFORM_SPACER_UM = 3000  # under each end of a cell, so its bending zone is free
OVERLOAD_GAP_UM = 500  # stop screw tip below the top plate (design.md "Bowls")

# -- the clock enclosure: two SSD1306 0.96-inch modules (27 x 27.8 mm PCB, M2 holes 23 x 23.8),
#    two 30 mm snap-in arcade buttons, pause and menu keys (12 mm tactile), piezo, and the clock
#    board with its two RJ45 jacks (hardware_docs/electrical.md: no MCU, no battery in the clock)
CLOCK_L_UM = 200000  # along the line between the players
CLOCK_W_UM = 90000
CLOCK_H_UM = 60000
CLOCK_FACE_ANGLE_DEG = 60  # the display faces, from the table
CLOCK_WALL_UM = 2500
DISPLAY_PCB_W_UM = 27000
DISPLAY_PCB_H_UM = 27800
DISPLAY_HOLES_W_UM = 23000
DISPLAY_HOLES_H_UM = 23800
DISPLAY_WINDOW_W_UM = 24000  # the visible area (21.7 x 10.9 mm) with a margin
DISPLAY_WINDOW_H_UM = 13000
DISPLAY_WINDOW_OFFSET_UM = 1500  # window centre above the PCB centre (glass toward the header)
ARCADE_HOLE_D_UM = 30000
ARCADE_PANEL_UM = 2500  # snap-in buttons hold panels up to about 3 mm
TACT_HOLE_D_UM = 12500
BUZZER_HOLES_D_UM = 2000
CLOCK_JACK_W_UM = 16500  # panel opening of a PCB-mounted RJ45 jack
CLOCK_JACK_H_UM = 14000

# -- the field of a stone's magnet at the sensor (design.md "Field"): on the magnet's axis, the
#    flux density normal to the board at the Hall element, for the wood left over the sensor.
#    The Hall element sits 0.7 mm inside the package and the lacquer adds 0.3 mm: the magnet's
#    face is 1 mm further from it than the wood is thick. Computed from the axially magnetised
#    disc (B = Br/2 [(z+L)/sqrt(R^2+(z+L)^2) - z/sqrt(R^2+z^2)], z the gap to the element;
#    tests/host/test_physical.py recomputes every figure from the dimensions above).
ELEMENT_BELOW_WOOD_UM = HALL_ELEMENT_UM + STONE_SEAL_UM  # package (0.7 mm) + lacquer (0.3 mm)
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
# classifier's default span without a calibration file (sensing/classifier.py DEFAULT_SPAN).
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
