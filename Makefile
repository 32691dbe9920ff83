# Two commands do everything on a fresh machine: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test test-slow lint bench install install-test clean mutate screenshots

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .

install-test: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'

run: install
	$(BIN)/asl-kb outcomes

# one pytest worker per core (pytest-xdist); TEST_WORKERS=0 runs in one process,
# e.g. with PYTEST_ARGS=-s to see the figures the report's browser tests print
TEST_WORKERS ?= auto
PYTEST_ARGS ?=
# (asl_kb's bytecode written first, as installing the package does: the CLI
# processes the tests start would otherwise each compile it under
# PYTHONDONTWRITEBYTECODE; pytest runs without it, so that each worker reads
# the test modules' rewritten asserts from the cache instead of rewriting them)
# make test: the suite a change must pass, within 2 minutes on 2 cores; the
# checks marked slow are make test-slow's (CI runs both: .ci/run)
test: lint
	$(BIN)/python -m compileall -q asl_kb
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -q -n $(TEST_WORKERS) $(PYTEST_ARGS)

# make test-slow: the checks marked slow; a worker with nothing left takes
# half of another's queue (--dist worksteal): the committee's sweep of minutes
# a case no longer waits behind one worker
test-slow: install-test
	$(BIN)/python -m compileall -q asl_kb
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist worksteal -m slow $(PYTEST_ARGS)

# ruff and mypy (pyproject.toml [tool.ruff], [tool.mypy]: asl_kb, tools and
# benchmarks); make test runs them first. mypy from cold (a fresh clone, no
# .mypy_cache) costs ~6 s of CPU, from its cache well under 1 s.
lint: install-test
	$(BIN)/ruff format --check asl_kb tools tests benchmarks
	$(BIN)/ruff check asl_kb tools tests benchmarks
	$(BIN)/mypy

bench: install
	$(BIN)/python benchmarks/bench_players.py --repeat 3
	$(BIN)/python benchmarks/bench_cases.py --repeat 3 --case-repeat 3
	$(BIN)/python benchmarks/bench_rout.py --repeat 1
	$(BIN)/python benchmarks/bench_phase.py

# Every rule clause pinned by a case (docs/mutation.md). FILES=rules/rout/A10_52_low_crawl.lp
# (paths or globs, space-separated) mutates only those; MUTATE_ARGS passes options
# (e.g. MUTATE_ARGS="--kind delete --jobs 1 --cases facts/rout/A10.52-low-crawl.yaml").
mutate: install-test
	$(BIN)/python -m tools.mutate $(FILES) $(MUTATE_ARGS)

# The README's pictures made again (docs/report-A10.531-EX.png, docs/serve.png;
# tools/screenshots.py): Chromium through Playwright
screenshots: install-test
	$(BIN)/python -m tools.screenshots

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache
