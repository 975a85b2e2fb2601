# ingboard: the README's two commands are `make demo` and `make test`; both set themselves up.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INGBOARD := $(VENV)/bin/ingboard
PORT ?=

.PHONY: setup system-deps test lint format size demo bench flash sim mp-test clean

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

lint: $(VENV)/.installed
	$(PY) -m ruff format --check .
	$(PY) -m ruff check .

format: $(VENV)/.installed
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

size: $(VENV)/.installed
	$(PY) -m host_tools.firmware_build --size

# Only the shared firmware tests, under MicroPython (pytest runs them too).
mp-test: setup
	$(PY) -m host_tools.micropython

test: setup lint
	$(PY) -m pytest

# Until `ingboard demo` lands: the newest end-to-end path (simulate a real game on the virtual
# board, track it with the firmware, write the SGF and the events).
demo: setup
	mkdir -p out/demo
	$(INGBOARD) simulate host_tools/data/demo_game.sgf --noise typical --seed 1 --log out/demo/session.log
	$(INGBOARD) track out/demo/session.log --sgf out/demo/game.sgf --events out/demo/events.jsonl

bench: setup
	$(PY) -m bench

flash: setup
	@test -n "$(PORT)" || { echo "make flash: set PORT=/dev/ttyACM0 (the board's serial port)" >&2; exit 2; }
	$(INGBOARD) flash --port $(PORT)

clean:
	rm -rf build .pytest_cache .ruff_cache
