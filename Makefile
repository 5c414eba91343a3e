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

# Optional: the double-dummy solver compiled by mypyc (about twice the nodes per second). The
# extension module shadows app/bots/solver.py until `make clean`; run it again after editing it.
compiled: $(STAMP)
	$(PY) -m pip install --quiet -e '.[compiled]'
	$(VENV)/bin/mypyc app/bots/solver.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build
	rm -f app/bots/*.so
