PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test demo bench bench-full bench-processes lint console clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m bot

console: $(STAMP)
	$(PY) -m bot console

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

test: lint
	$(PY) -m pytest

demo: $(STAMP)
	rm -rf demo-out && mkdir -p demo-out
	$(PY) -m bot play examples/demo.play --seed 7 --out demo-out --db demo-out/demo.sqlite3 | tee demo-out/log.txt
	@echo "maps and log written to demo-out/"

bench: $(STAMP)
	$(PY) benchmarks/bench_orders.py --quick
	$(PY) benchmarks/bench_legality.py

bench-full: $(STAMP)
	$(PY) benchmarks/bench_orders.py --full

bench-processes: $(STAMP)
	$(PY) benchmarks/bench_processes.py

clean:
	rm -rf $(VENV) demo-out .pytest_cache .mypy_cache .ruff_cache
