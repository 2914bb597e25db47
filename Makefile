# Quick start: `make demo` and `make test` bootstrap .venv from nothing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lit pytest bench flatbuffers clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python examples/demo.py

test: lit pytest

lit: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -s test/lit

pytest: $(STAMP)
	$(BIN)/python -m pytest -q -n auto test/python

bench: $(STAMP)
	$(BIN)/python benchmarks/opt_bench.py
	$(BIN)/python benchmarks/compile_bench.py
	$(BIN)/python benchmarks/runtime_bench.py

# Regenerate the flatbuffer accessors from ttmlir/target/schema (the .fbs files are the source of truth).
flatbuffers: $(STAMP)
	$(BIN)/python -m ttmlir.target.generate

clean:
	rm -rf $(VENV) build *.egg-info
