# sixtui: `make test` sets everything up on a fresh machine and runs the suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install serve play test bench bench-ai loadtest lint clean

install: $(STAMP)

# Reinstall only when the project's metadata changes.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# The SSH server, on port 2222 of every network interface, guests allowed: players connect
# with ssh -p 2222 HOST (this machine's name or address). Settings: config/server.toml.
# To keep it to this machine: make serve ARGS="--host 127.0.0.1".
serve: install
	$(BIN)/sixtui serve $(ARGS)

# The home screen; pass a game and options with ARGS, e.g. make play ARGS="play six --vs normal".
play: install
	$(BIN)/sixtui $(ARGS)

# One test process per core (pytest-xdist); work stealing evens out the long AI tests.
test: install
	$(BIN)/python -m pytest -q -n auto --dist worksteal

bench: install
	$(BIN)/python -m benchmarks

# The computer players' round robins (quick: 4 games a pair; the full run is in
# docs/benchmarks.md), then Connect6 against Cloudict when ENGINE names the folder where it
# was built (gameEngine and patterns.in), e.g. make bench-ai ENGINE=/tmp/cloudict.
# More options with ARGS, e.g. make bench-ai ARGS="--games 20 --game connect6".
bench-ai: install
	$(BIN)/python -m benchmarks ai $(if $(ENGINE),--engine $(ENGINE)) $(ARGS)

# Many players over SSH against one server process, on this machine only: SESSIONS bots
# pair in the lobby and play a turn every 2 s at each table for SECONDS seconds; the report
# ends with one line for scripts. More options with ARGS (ARGS="--help" lists them), e.g.
# make loadtest SESSIONS=200 SECONDS=60 ARGS="--runs 3". Results: docs/benchmarks.md.
SESSIONS ?= 20
SECONDS ?= 20
loadtest: install
	$(BIN)/python -m benchmarks load --sessions $(SESSIONS) --seconds $(SECONDS) $(ARGS)

lint: install
	$(BIN)/ruff check sixtui server tests benchmarks
	$(BIN)/ruff format --check sixtui server tests benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
