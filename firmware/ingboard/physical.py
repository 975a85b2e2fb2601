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
CABLE_EXIT_W_UM = 30000  # from the spine pocket out through the board's right edge
CABLE_EXIT_Z_UM = 30000  # its floor

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
