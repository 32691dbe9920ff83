# Two commands do everything on a fresh machine: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test bench install install-test clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .

install-test: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'

run: install
	$(BIN)/asl-kb outcomes

test: install-test
	$(BIN)/python -m pytest -q

bench: install
	$(BIN)/python benchmarks/bench_cases.py --repeat 3
	$(BIN)/python benchmarks/bench_rout.py --repeat 1
	$(BIN)/python benchmarks/bench_phase.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache
