"""Corrupted inputs (1,000+ mutations of valid files) always end in a diagnostic, never an exception."""

import random
import re
from pathlib import Path

import pytest

from ttmlir_opt import Options, process_chunk

ROOT = Path(__file__).resolve().parents[3]
SEEDS = [ROOT / "examples" / "mlp.mlir", ROOT / "examples" / "attention.mlir",
         ROOT / "test" / "lit" / "Dialect" / "TTCore" / "module_wrappers.mlir",
         ROOT / "test" / "lit" / "Dialect" / "TTNN" / "layout" / "layouts.mlir",
         ROOT / "test" / "lit" / "IR" / "locations.mlir"]
TOKENS = ["%", "#", "<", ">", "(", ")", "{", "}", "[", "]", ",", ":", "=", "x", "0", "-1", '"', "loc(",
          "tensor<", "!ttcore.tile<", "#ttnn.ttnn_layout<", "ttir.", "array<i64:", "dense<", "@", "^bb0"]


def mutate(text: str, rng: random.Random) -> str:
    kind = rng.randrange(6)
    pos = rng.randrange(len(text))
    if kind == 0:
        return text[:pos]  # truncated
    if kind == 1:
        return text[:pos] + text[pos + rng.randint(1, 20):]  # bytes dropped
    if kind == 2:
        return text[:pos] + rng.choice(TOKENS) + text[pos:]  # token inserted
    if kind == 3:
        return text[:pos] + chr(rng.randrange(32, 127)) + text[pos + 1:]  # byte flipped
    if kind == 4 and (number := re.compile(r"\d+").search(text, pos)):  # a number (a width, a size) blown up
        return text[:number.start()] + number.group() * rng.randint(2, 8) + text[number.end():]
    other = rng.randrange(len(text))  # a span duplicated elsewhere
    return text[:pos] + text[other:other + rng.randint(1, 40)] + text[pos:]


@pytest.mark.parametrize("seed_file", SEEDS, ids=lambda p: p.name)
def test_mutations_end_in_diagnostics(seed_file):
    text = seed_file.read_text()
    rng = random.Random(seed_file.name)
    opts = Options(passes=[("ttir-to-ttnn-backend-pipeline", "")])
    outcomes = {"printed": 0, "diagnosed": 0}
    for _ in range(220):
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
    assert outcomes["diagnosed"] > 80  # the rest are still valid (a cut inside the leading comments is empty, valid)
