# ingboard: the README's two commands are `make demo` and `make test`; both set themselves up.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INGBOARD := $(VENV)/bin/ingboard
PORT ?=

.PHONY: corpus setup katago system-deps test test-device lint format size demo bench flash sim twin twin-soak mp-test clean relay-soak hardware hardware-mech hardware-electronics firmware firmware-toolchain

setup: $(VENV)/.installed node_modules/.installed system-deps

$(VENV)/.installed: requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Debian packages the tests use as real peers (GNU Go). Installs only what is missing.
system-deps:
	@sh host_tools/setup/system_packages.sh

# Optional: KataGo as a strong opponent (KaTrain's wheel + Debian's pocl OpenCL), in .katago/;
# tunes OpenCL once (20-60 min on 2 busy cores, niced), then checks one genmove.
katago: $(VENV)/.installed
	sh host_tools/setup/katago.sh $(PY)

lint: $(VENV)/.installed
	$(PY) -m ruff format --check .
	$(PY) -m ruff check .

format: $(VENV)/.installed
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

size: $(VENV)/.installed
	$(PY) -m host_tools.firmware_build --size

# Only the shared firmware tests, under MicroPython (pytest runs them too), then the rules
# core's own tests against its wheel installed into a fresh venv (CPython and MicroPython).
mp-test: setup
	$(PY) -m host_tools.micropython
	$(PY) -m host_tools.rules_package

# The README's test command: everything but the long runs on the device twin (marker
# `device`: the twin's long game, power cuts, counts; `make test-device`). CI runs both.
# pytest runs one worker per core (pytest-xdist), a test file per worker at a time; the corpus
# is generated beside them (GNU Go in the background) while the files that do not need it run
# first (tests/conftest.py orders the files: the MicroPython run first, the corpus users last;
# a corpus user that comes before the corpus is done waits for it on its lock).
TEST_WORKERS ?= auto
test: setup lint
	@$(PY) -m tests.corpus --quiet & corpus=$$!; \
	$(PY) -m pytest -m "not device" -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder \
		--timeout=600; status=$$?; \
	wait $$corpus || { echo "make test: generating the corpus failed" >&2; status=1; }; \
	exit $$status

test-device: setup corpus
	$(PY) -m pytest -m device --timeout=3000

# The tests' game corpus (tests/corpus.py): 50 GNU Go games, generated once into .cache/corpus
# (a minute or two on 2 cores), here rather than inside the first test that needs it, so no
# test's time limit pays for it (make test generates it in the background instead).
corpus: setup
	$(PY) -m tests.corpus --quiet

# Issue 19's relay soak: 500 simulated boards in 5 worker processes for 60 s against real
# mosquitto, two broker kills, one relay kill, one board sending malformed messages; prints the
# figures as JSON and fails unless no move of any other board was lost, duplicated or reordered.
SOAK_BOARDS ?= 500
SOAK_SECONDS ?= 60
relay-soak: setup
	$(PY) -m host_tools.relay.soak --boards $(SOAK_BOARDS) --workers 5 --seconds $(SOAK_SECONDS)

# A real game on the virtual board, tracked by the firmware, counted by fill-in, bowls checked;
# writes out/demo/{game.sgf, session.log, events.jsonl, board.png, clock.png}.
demo: setup
	$(INGBOARD) demo

# The virtual board in the browser (http://127.0.0.1:$(SIM_PORT)/), opened when there is a
# display; `make sim ENGINE="gnugo --mode gtp"` plays against a GTP engine.
SIM_PORT ?= 8000
ENGINE ?=
sim: setup
	$(INGBOARD) sim --port $(SIM_PORT) --open auto $(if $(ENGINE),--engine "$(ENGINE)")

# The device twin: the real MicroPython rp2 firmware on an emulated RP2040, its USB serial on a
# pseudo-terminal (images from $$INGBOARD_MCU_DIR, default ../shared/mcu). TWIN_ARGS=--romfs etc.
TWIN_ARGS ?=
twin: setup
	$(INGBOARD) twin $(TWIN_ARGS)

# A game on the twin through >= 50 flash-level power cuts, each resumed exactly (long; not in
# make test). INGBOARD_TWIN_SOAK_CUTS / _SEED / _MS change it.
twin-soak: setup
	INGBOARD_TWIN_SOAK=1 $(PY) -m pytest tests/host/test_twin_soak.py -q -rs -s

bench: setup
	$(PY) -m bench

# The boards, regenerated from firmware/ingboard/board_config.py: netlists, SKiDL ERC, KiCad 6
# projects placed and routed by script, DRC, Gerbers + drill, BOM/CPL, renders (hardware/kicad/,
# hardware_docs/boards.md). Installs KiCad 6 and SKiDL the first time (not part of make setup).
hardware-electronics: setup
	@sh hardware/electronics/make_hardware.sh

# The RP2040's firmware: MicroPython v1.28.0's rp2 port for a Pico with ingboard frozen in
# (boards/INGBOARD_PICO/), from a MicroPython checkout with its rp2 submodules; writes
# build/firmware/ingboard-RPI_PICO.uf2. PICOTOOL=<picotool install prefix> where pico-sdk cannot
# download picotool. Installs the arm-none-eabi toolchain from Debian the first time.
MICROPYTHON ?=
PICOTOOL ?=
firmware-toolchain:
	@sh host_tools/setup/firmware_toolchain.sh

firmware: $(VENV)/.installed
	@$(PY) -m host_tools.firmware_image --check --micropython "$(MICROPYTHON)"
	@sh host_tools/setup/firmware_toolchain.sh
	$(PY) -m host_tools.firmware_image --micropython "$(MICROPYTHON)" $(if $(PICOTOOL),--picotool "$(PICOTOOL)")

flash: setup
	@test -n "$(PORT)" || { echo "make flash: set PORT=/dev/ttyACM0 (the board's serial port)" >&2; exit 2; }
	$(INGBOARD) flash --port $(PORT)

# Everything a club builds from: `make hardware` runs each part's generator, the mechanical parts
# first (they need no board), then the boards. The generated files are committed.
hardware: hardware-mech hardware-electronics

# The mechanical drawings (DXF/SVG/PDF/PNG) and printed parts (OpenSCAD -> STL/PNG) from
# firmware/ingboard/physical.py; installs Debian's openscad and xvfb if missing. `make test`
# only checks that the committed text outputs are current (tests/host/test_mech_drawings.py).
hardware-mech: $(VENV)/.installed
	$(PY) hardware/mech/generate.py --png
	PY=$(abspath $(PY)) sh hardware/mech/render.sh

clean:
	rm -rf build .pytest_cache .ruff_cache
