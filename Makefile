# Quick start: `make demo` and `make test` bootstrap .venv from nothing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lit pytest bench flatbuffers clean bytecode

# The checkout goes on the path as plain path entries (compat mode; tools/ beside it, where the packages users
# import by name live): setuptools' default editable finder costs every Python process 30 ms at start-up, and
# `make test` starts some 2,500 of them.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -e '.[test]' --config-settings editable_mode=compat
	$(BIN)/python -c 'import sysconfig; open(sysconfig.get_path("purelib") + "/ttmlir-tools.pth", "w").write("$(CURDIR)/tools\n")'
	touch $(STAMP)

demo: bytecode
	$(BIN)/python examples/demo.py

# The package's bytecode written once: with PYTHONDONTWRITEBYTECODE set (as in many CI images) every Python process
# the tests start would otherwise compile the compiler's sources again (0.6 s a process). Up to date, it costs 0.3 s.
bytecode: $(STAMP)
	$(BIN)/python -m compileall -q -j 0 ttmlir tools

# lit and pytest side by side: each spreads over the cores, and one's slow tail runs beside the other's work
# (each prints its report when it ends).
test: bytecode
	$(MAKE) --no-print-directory -j2 --output-sync=target lit pytest

# The suites run one test per core already (lit's workers, xdist's), so torch's intra-op threads would only
# oversubscribe the cores: spinning at barriers, they cost a loaded run a quarter more CPU on torch-heavy tests.
lit pytest: export OMP_NUM_THREADS := 1

lit: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -s test/lit

pytest: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist loadgroup test/python

bench: $(STAMP)
	$(BIN)/python benchmarks/opt_bench.py
	$(BIN)/python benchmarks/compile_bench.py
	$(BIN)/python benchmarks/runtime_bench.py

# Regenerate the flatbuffer accessors from ttmlir/target/schema (the .fbs files are the source of truth).
flatbuffers: $(STAMP)
	$(BIN)/python -m ttmlir.target.generate

clean:
	rm -rf $(VENV) build *.egg-info
