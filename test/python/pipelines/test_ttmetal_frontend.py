"""The TTIR frontend `--ttir-to-ttmetal-pipeline` runs before D2M (upstream's order): composites written out
(layer_norm, rms_norm, softmax), reductions that drop their dims kept as ones and reshaped, the reshape of a column to
a row a transpose; each run on the simulated grid against torch. A refusal of an op a frontend pass made is
located where the op it was made from was written."""

import pytest
import torch

from test_ttmetal_pipeline import compile_ttir
from ttmlir.compiler import lower_to_ttmetal
from ttmlir.diagnostics import DiagnosticError
from ttmlir.runtime.metal.program import run_program


def _run(source: str, *inputs: torch.Tensor) -> torch.Tensor:
    (out,), _ = run_program(compile_ttir(source), list(inputs))
    return out


def _randn(*shape: int, seed: int = 0) -> torch.Tensor:
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed))


def test_reduction_without_kept_dim():
    source = ('func.func @r(%a: tensor<64x96xf32>) -> tensor<64xf32> {\n  %0 = "ttir.sum"(%a) <{dim_arg = [1 : i32], '
              'keep_dim = false}> : (tensor<64x96xf32>) -> tensor<64xf32>\n  return %0 : tensor<64xf32>\n}\n')
    x = _randn(64, 96)
    assert torch.allclose(_run(source, x), x.sum(1), atol=1e-3)


@pytest.mark.parametrize("op, reference", [
    ("layer_norm", lambda x, w, b: torch.nn.functional.layer_norm(x, (96,), w, b, 1e-5)),
    ("rms_norm", lambda x, w, b: torch.nn.functional.rms_norm(x, (96,), w, 1e-5) + b),
])
def test_norms_written_out(op, reference):
    t, v = "tensor<64x96xf32>", "tensor<96xf32>"
    source = (f"func.func @n(%x: {t}, %w: {v}, %b: {v}) -> {t} {{\n  %0 = \"ttir.{op}\"(%x, %w, %b) <{{epsilon = "
              f"1.0e-05 : f32, normalized_shape = array<i64: 96>, operandSegmentSizes = array<i32: 1, 1, 1>}}> : "
              f"({t}, {v}, {v}) -> {t}\n  return %0 : {t}\n}}\n")
    x, w, b = _randn(64, 96), _randn(96, seed=1), _randn(96, seed=2)
    assert torch.allclose(_run(source, x, w, b), reference(x, w, b), atol=1e-3)


def test_refusal_of_an_op_the_frontend_made_is_located_at_its_source():
    # the reduction is remade keeping its dim (with the reduction's location), and that one, an argmax of integers,
    # is refused
    source = ('func.func @r(%a: tensor<32x4x64xsi32>) -> tensor<32x4xsi32> {\n'
              '  %0 = "ttir.argmax"(%a) <{dim_arg = [2 : i32], keep_dim = false}> : (tensor<32x4x64xsi32>) -> '
              'tensor<32x4xsi32> loc("s")\n  return %0 : tensor<32x4xsi32>\n}\n')
    with pytest.raises(DiagnosticError) as error:
        lower_to_ttmetal(source, "r.mlir")
    assert error.value.diagnostic.render().startswith("r.mlir:2:8: error: an argmax of si32 is not converted to D2M yet")
