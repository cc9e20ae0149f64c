# Two commands on a fresh machine with Python 3.11+:  make run   |   make test
# Both install the exact versions in constraints.txt (the ones the suite last passed with) within the ranges
# of pyproject.toml; `make constraints` resolves the ranges afresh, runs the suite and, if it passes,
# rewrites constraints.txt.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CONSTRAINTS := constraints.txt
FRESH := .venv-constraints

.PHONY: run test test-fast test-deep bench screenshots constraints clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) -e '.[test]'
	touch $(STAMP)

# drill run from this checkout saves into its saves/ (drill/core/paths.py); DRILL_SAVES or ARGS=--saves choose another
run: $(STAMP)
	$(BIN)/drill $(ARGS)

# The suite starts hundreds of Python processes (xdist workers, the CLI's subprocess tests, pty and tmux tests).
# Where PYTHONDONTWRITEBYTECODE is set (some sandboxes and CI images set it) each of them compiled the project
# from source and pytest rewrote the test modules' asserts again: ~40 s of make test, 3-4 s a worker of make
# test-fast, on 2 cores. The lanes run with Python's default: bytecode kept in the git-ignored __pycache__.
test test-fast test-deep: export PYTHONDONTWRITEBYTECODE :=

# The suite's lanes (docs/testing.md; tests/conftest.py). --dist loadgroup: one worker makes a template's problems.
# make test: ruff ([tool.ruff]), mypy ([tool.mypy]), then everything but the deep lane, every template at seeds 0-40.
test: $(STAMP)
	$(BIN)/python -m ruff check .
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

# While editing: the unit tests (but the long sweeps, marked sweep), every template at one seed. One seed per
# template: nothing to share between a template's tests, so --dist load balances the workers better.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist load --lane fast tests/unit $(PYTEST_ARGS)

# The slow lane: vulture (no dead code: [tool.vulture]), then Hypothesis's fresh random examples (4x as many) and every template at 200 seeds.
test-deep: $(STAMP)
	$(BIN)/vulture engine question_bank drill benchmarks tests/vulture_whitelist.py
	$(BIN)/python -m pytest -n 2 --dist loadgroup --lane deep $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python -m benchmarks

# The README's screenshot (docs/home.svg): Home at 80x24 on a new profile; a test checks it is today's Home.
screenshots: $(STAMP)
	$(BIN)/python -m tests.tools.screenshots

# The newest versions pyproject.toml allows, in a throwaway venv: kept only if the whole suite passes there.
constraints:
	rm -rf $(FRESH)
	$(PYTHON) -m venv $(FRESH)
	$(FRESH)/bin/python -m pip install --quiet --upgrade pip
	$(FRESH)/bin/python -m pip install --quiet -e '.[test]'
	$(FRESH)/bin/python -m pytest -n 2 --dist loadgroup -q -p no:cacheprovider $(PYTEST_ARGS)
	{ echo "# Exact versions the test suite last passed with (pip freeze, without infra-drill itself)."; \
	  echo "# Used by make run / make test; refresh with: make constraints. The ranges live in pyproject.toml."; \
	  $(FRESH)/bin/python -m pip freeze --exclude-editable | grep -iv '^infra[-_]drill'; } > $(CONSTRAINTS).new
	mv $(CONSTRAINTS).new $(CONSTRAINTS)
	rm -rf $(FRESH)
	@echo "constraints.txt refreshed; run make test to install it here"

clean:
	rm -rf $(VENV) $(FRESH) .pytest_cache .hypothesis
