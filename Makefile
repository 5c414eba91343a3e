# Two commands for a newcomer: `make run` serves the game, `make test` runs every check.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev
CC ?= cc
# The native search, built below when there is a C compiler.
NATIVE := app/bots/native/_dd.so

.PHONY: run test lint typecheck pytest bench compiled clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP) $(NATIVE)
	$(PY) -m app

lint: $(STAMP)
	$(PY) -m ruff check app tests bench migrations
	$(PY) -m ruff format --check app tests bench migrations

typecheck: $(STAMP)
	$(PY) -m mypy

pytest: $(STAMP) $(NATIVE)
	$(PY) -m pytest

test: lint typecheck pytest

bench: $(STAMP)
	$(PY) -m bench.engine --preset french --seconds 5 --json
	$(PY) -m bench.engine --preset bulgarian --seconds 5 --json

# The native double-dummy search (app/bots/native/dd.c, about 40 times the nodes per second of
# the pure one): the expert bot then solves from the second trick, and plays as measured in
# docs/architecture.md. `make run` and `make test` build it when there is a C compiler; without
# one they say so and the expert plays its pure-Python search (the same rules, a weaker bot).
$(NATIVE): app/bots/native/dd.c
	@$(CC) -O2 -shared -fPIC $< -o $@ \
	  || echo "make: could not build $@ with $(CC): the expert bot plays its pure-Python search" >&2

# Optional, on top: the rest of the solver compiled by mypyc (app/bots/solver.py, about twice
# the pure module's speed; the extension shadows it until `make clean`). Run it again after
# editing the solver.
compiled: $(STAMP) $(NATIVE)
	$(PY) -m pip install --quiet -e '.[compiled]'
	$(VENV)/bin/mypyc app/bots/solver.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build
	rm -f app/bots/*.so app/bots/native/*.so
