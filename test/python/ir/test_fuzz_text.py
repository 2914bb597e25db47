"""Corrupted inputs (1,000+ mutations of valid files) always end in a diagnostic, never an exception."""

import random
from pathlib import Path

import pytest

from ttmlir_opt import Options, process_chunk
from fuzzing import mutate

ROOT = Path(__file__).resolve().parents[3]
SEEDS = [ROOT / "examples" / "mlp.mlir", ROOT / "examples" / "attention.mlir",
         ROOT / "test" / "lit" / "Dialect" / "TTCore" / "module_wrappers.mlir",
         ROOT / "test" / "lit" / "Dialect" / "TTNN" / "layout" / "layouts.mlir",
         ROOT / "test" / "lit" / "IR" / "locations.mlir"]




@pytest.mark.parametrize("seed_file", SEEDS, ids=lambda p: p.name)
def test_mutations_end_in_diagnostics(seed_file):
    text = seed_file.read_text()
    rng = random.Random(seed_file.name)
    opts = Options(passes=[("ttir-to-ttnn-backend-pipeline", "")])
    outcomes = {"printed": 0, "diagnosed": 0}
    for _ in range(120):
        mutated = mutate(text, rng)
        printed, diagnostics = process_chunk(mutated, "fuzz.mlir", 0, opts)
        assert (printed is None) == bool(diagnostics)
        if diagnostics:
            rendered = diagnostics[0].render()
            assert rendered.startswith("fuzz.mlir")
            assert "error:" in rendered.splitlines()[0]
            outcomes["diagnosed"] += 1
        else:
            outcomes["printed"] += 1
    assert outcomes["diagnosed"] > 40  # the rest are still valid (a cut inside the leading comments is empty, valid)
