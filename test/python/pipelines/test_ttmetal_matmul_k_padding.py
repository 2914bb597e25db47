"""Matmuls whose contracted dim K is not a whole number of tiles, of operands computed on the device (whose tile
padding holds the op's value of 0: exp(0) = 1): the K padding of A's columns and B's rows is zeroed on the device
before the matmul, so it adds nothing. Through `--ttir-to-ttmetal-pipeline`, run on the simulator against torch."""

import pytest
import torch

from test_ttmetal_pipeline import compile_ttir
from ttmlir.runtime.metal.program import run_program


def _type(shape: tuple[int, ...]) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


@pytest.mark.parametrize("a, b, op, attrs, expected", [
    ((40, 4), (4, 50), "matmul", "", lambda x, y: x @ y),
    ((40, 20), (50, 20), "matmul", "transpose_b = true", lambda x, y: x @ y.T),
    ((1, 1, 64, 4), (1, 1, 4, 32), "dot_general",
     "batch_dims_lhs = array<i64: 0, 1>, batch_dims_rhs = array<i64: 0, 1>, contract_dims_lhs = array<i64: 3>, "
     "contract_dims_rhs = array<i64: 2>", lambda x, y: x @ y),
    ((2, 40, 36), (2, 50, 36), "matmul", "transpose_b = true", lambda x, y: x @ y.transpose(1, 2)),
])
def test_a_matmul_of_device_data_contracts_its_logical_k_only(a, b, op, attrs, expected):
    out = tuple(torch.broadcast_shapes(expected(torch.zeros(a), torch.zeros(b)).shape))
    ta, tb, to = _type(a), _type(b), _type(out)
    props = f" <{{{attrs}}}>" if attrs else ""
    source = (f"func.func @f(%a: {ta}, %b: {tb}) -> {to} {{\n"
              f"  %0 = \"ttir.exp\"(%a) : ({ta}) -> {ta}\n  %1 = \"ttir.exp\"(%b) : ({tb}) -> {tb}\n"
              f"  %2 = \"ttir.{op}\"(%0, %1){props} : ({ta}, {tb}) -> {to}\n  return %2 : {to}\n}}\n")
    x, y = (torch.randn(s, generator=torch.Generator().manual_seed(i)) for i, s in enumerate((a, b)))
    (result,), _ = run_program(compile_ttir(source), [x, y])
    assert torch.allclose(result, expected(torch.exp(x), torch.exp(y)), rtol=1e-2, atol=1e-2)
