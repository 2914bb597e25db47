"""The logical ops on the kernel path (`--ttir-to-ttmetal-pipeline`) run on the simulator against torch: and, or, xor
and not of zeros, ones and other values of each element type, operands broadcast along rows, columns and a batch,
alone and fused with a neighbour."""

import pytest
import torch

from ttmlir.compiler import lower_to_ttmetal
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

TORCH = {"bf16": torch.bfloat16, "f32": torch.float32, "si32": torch.int32}
BINARY = {"logical_and": torch.logical_and, "logical_or": torch.logical_or, "logical_xor": torch.logical_xor}


def _tensor(shape, dtype) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"


@pytest.mark.parametrize("op, a, b, dtype, options", [
    ("logical_and", (40, 70), (40, 70), "bf16", ""),
    ("logical_or", (40, 70), (1, 70), "f32", ""),  # b along the rows
    ("logical_xor", (3, 40, 64), (3, 40, 1), "bf16", ""),  # b along the columns, with a batch
    ("logical_and", (64, 64), (64, 64), "si32", ""),
    ("logical_xor", (64, 32), (64, 32), "si32", ""),
    ("logical_or", (64, 96), (64, 96), "bf16", "enable-elementwise-fusion=true"),
])
def test_binary_logical_ops_are_the_truth_of_their_operands(op, a, b, dtype, options):
    g = torch.Generator().manual_seed(sum(a) + len(op))
    x = torch.randint(-2, 3, a, generator=g).to(TORCH[dtype])  # zeros, and values of either sign beside 1
    y = (torch.randint(-1, 2, b, generator=g) * 3).to(TORCH[dtype])
    expected = BINARY[op](x, y).to(TORCH[dtype])
    text = f"""
func.func @logical(%a: {_tensor(a, dtype)}, %b: {_tensor(b, dtype)}) -> {_tensor(expected.shape, dtype)} {{
  %0 = "ttir.{op}"(%a, %b) : ({_tensor(a, dtype)}, {_tensor(b, dtype)}) -> {_tensor(expected.shape, dtype)}
  return %0 : {_tensor(expected.shape, dtype)}
}}
"""
    outputs, _ = run_program(translate(lower_to_ttmetal(text, "<test>", options)), [x, y])
    assert torch.equal(outputs[0].to(expected.dtype), expected)


def test_not_of_and_fused():
    """not(and(a, b)): two programs, or one when fused, the same truth table."""
    g = torch.Generator().manual_seed(7)
    x, y = (torch.randint(-1, 2, (64, 64), generator=g).float() for _ in range(2))
    t = _tensor((64, 64), "f32")
    text = f"""
func.func @nand(%a: {t}, %b: {t}) -> {t} {{
  %0 = "ttir.logical_and"(%a, %b) : ({t}, {t}) -> {t}
  %1 = "ttir.logical_not"(%0) : ({t}) -> {t}
  return %1 : {t}
}}
"""
    expected = torch.logical_not(torch.logical_and(x, y)).float()
    for options in ("", "enable-elementwise-fusion=true"):
        outputs, _ = run_program(translate(lower_to_ttmetal(text, "<test>", options)), [x, y])
        assert torch.equal(outputs[0].float(), expected), options
