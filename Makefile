# Two commands for a newcomer: `make run` serves the game, `make test` runs every check.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev

.PHONY: run test lint typecheck pytest bench compiled clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m app

lint: $(STAMP)
	$(PY) -m ruff check app tests bench migrations
	$(PY) -m ruff format --check app tests bench migrations

typecheck: $(STAMP)
	$(PY) -m mypy

pytest: $(STAMP)
	$(PY) -m pytest

test: lint typecheck pytest

bench: $(STAMP)
	$(PY) -m bench.engine --preset french --seconds 5 --json
	$(PY) -m bench.engine --preset bulgarian --seconds 5 --json

# Optional: the native double-dummy search (app/bots/native/dd.c, about 50 times the nodes per
# second of the pure one; the expert then solves from the second trick), and the rest of the
# solver compiled by mypyc. Both shadow nothing but themselves: without them the pure modules
# run. Run it again after editing either; `make clean` removes them.
CC ?= cc
compiled: $(STAMP)
	$(CC) -O2 -shared -fPIC app/bots/native/dd.c -o app/bots/native/_dd.so
	$(PY) -m pip install --quiet -e '.[compiled]'
	$(VENV)/bin/mypyc app/bots/solver.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build
	rm -f app/bots/*.so app/bots/native/*.so
