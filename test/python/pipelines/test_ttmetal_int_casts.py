"""si32 tensors cast to float types and back on the Metal path (the SFPU's typecast_tile in the compute kernel,
simulated from the kernel's C++; a float truncated to an integer), and comparisons of si32 operands into a float mask, run on the simulated grid against torch."""

import pytest
import torch

from test_ttmetal_pipeline import compile_ttir
from ttmlir.runtime.metal.program import run_program

SHAPE = (40, 70)  # not whole tiles: the padding is cast too
TYPE = "x".join(map(str, SHAPE))


def _ints(seed: int, scale: int = 1) -> torch.Tensor:
    return torch.randint(-50, 50, SHAPE, generator=torch.Generator().manual_seed(seed), dtype=torch.int32) * scale


@pytest.mark.parametrize("element, dtype", [("f32", torch.float32), ("bf16", torch.bfloat16)])
def test_si32_typecast_to_float(element, dtype):
    source = (f"func.func @f(%a: tensor<{TYPE}xsi32>) -> tensor<{TYPE}x{element}> {{\n"
              f"  %0 = \"ttir.typecast\"(%a) : (tensor<{TYPE}xsi32>) -> tensor<{TYPE}x{element}>\n"
              f"  return %0 : tensor<{TYPE}x{element}>\n}}\n")
    x = _ints(0, 1001)  # values bf16 rounds
    (out,), _ = run_program(compile_ttir(source), [x])
    assert torch.equal(out.float(), x.to(dtype).float())


@pytest.mark.parametrize("element", ["f32", "bf16"])
def test_float_typecast_to_si32_truncates(element):
    source = (f"func.func @f(%a: tensor<{TYPE}x{element}>) -> tensor<{TYPE}xsi32> {{\n"
              f"  %0 = \"ttir.typecast\"(%a) : (tensor<{TYPE}x{element}>) -> tensor<{TYPE}xsi32>\n"
              f"  return %0 : tensor<{TYPE}xsi32>\n}}\n")
    x = torch.randn(SHAPE, generator=torch.Generator().manual_seed(3)) * 100
    x = x.to(torch.bfloat16).float() if element == "bf16" else x
    (out,), _ = run_program(compile_ttir(source), [x])
    assert torch.equal(out.to(torch.int32), x.to(torch.int32))


@pytest.mark.parametrize("op, expected", [("lt", torch.lt), ("ge", torch.ge), ("eq", torch.eq)])
def test_si32_compare_into_bf16_mask(op, expected):
    s, r = f"tensor<{TYPE}xsi32>", f"tensor<{TYPE}xbf16>"
    source = (f"func.func @f(%a: {s}, %b: {s}) -> {r} {{\n  %0 = \"ttir.{op}\"(%a, %b) : ({s}, {s}) -> {r}\n"
              f"  return %0 : {r}\n}}\n")
    a, b = _ints(1) // 10, _ints(2) // 10  # small range: many equal pairs
    (out,), _ = run_program(compile_ttir(source), [a, b])
    assert torch.equal(out.float(), expected(a, b).float())
