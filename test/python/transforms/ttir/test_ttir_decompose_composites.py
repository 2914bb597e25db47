"""--ttir-decompose-composites writes rms_norm, layer_norm, softmax, scaled_dot_product_attention and repeat out in
primitive TTIR ops that compute what the composite did (TTIR goldens before and after on the same inputs)."""

from __future__ import annotations

import pytest
import torch

from ttir_eval import function_module, run_function
from ttmlir.dialects import make_context
from ttmlir.passes import make_pass

T = "tensor<{}xf32>"
CASES = [
    # GQA: 6 query heads over 2 key/value heads, causal, default scale
    ("sdpa-gqa-causal", ["1x6x16x8", "1x2x16x8", "1x2x16x4"], "1x6x16x4",
     '%0 = "ttir.scaled_dot_product_attention"(%a0, %a1, %a2) <{is_causal = true, '
     'operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (@q, @k, @v) -> @r'),
    # a mask (causal is then not applied) and a scale; more keys than queries
    ("sdpa-mask-scale", ["2x4x8x16", "2x4x24x16", "2x4x24x16", "2x1x8x24"], "2x4x8x16",
     '%0 = "ttir.scaled_dot_product_attention"(%a0, %a1, %a2, %a3) <{is_causal = true, scale = 0.3 : f32, '
     'operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}> : (@q, @k, @v, @m) -> @r'),
    ("rms-weight-bias", ["2x4x64", "64", "64"], "2x4x64",
     '%0 = "ttir.rms_norm"(%a0, %a1, %a2) <{normalized_shape = array<i64: 64>, epsilon = 1.0e-05 : f32, '
     'operandSegmentSizes = array<i32: 1, 1, 1>}> : (@q, @k, @v) -> @r'),
    ("layer-norm-two-dims", ["2x4x64"], "2x4x64",
     '%0 = "ttir.layer_norm"(%a0) <{normalized_shape = array<i64: 4, 64>, epsilon = 1.0e-06 : f32, '
     'operandSegmentSizes = array<i32: 1, 0, 0>}> : (@q) -> @r'),
    ("layer-norm-weight-bias", ["3x32", "32", "32"], "3x32",
     '%0 = "ttir.layer_norm"(%a0, %a1, %a2) <{normalized_shape = array<i64: 32>, epsilon = 1.0e-05 : f32, '
     'operandSegmentSizes = array<i32: 1, 1, 1>}> : (@q, @k, @v) -> @r'),
    ("softmax-stable", ["4x8x16"], "4x8x16",
     '%0 = "ttir.softmax"(%a0) <{dimension = 1 : si32, numericStable = true}> : (@q) -> @r'),
    ("softmax", ["4x8x16"], "4x8x16",
     '%0 = "ttir.softmax"(%a0) <{dimension = -1 : si32, numericStable = false}> : (@q) -> @r'),
    ("repeat", ["2x3x4"], "10x3x12",
     '%0 = "ttir.repeat"(%a0) <{repeat_dimensions = array<i64: 5, 1, 3>}> : (@q) -> @r'),
]


@pytest.mark.parametrize("args, result, line", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_composites_written_out_compute_the_same(args, result, line):
    names = dict(zip("qkvm", (T.format(a) for a in args)))
    for key, type_ in [*names.items(), ("r", T.format(result))]:
        line = line.replace("@" + key, type_)
    body = f"  {line}\n  return %0 : {T.format(result)}"
    g = torch.Generator().manual_seed(11)
    inputs = [torch.randn(*map(int, a.split("x")), generator=g) for a in args]
    before = run_function(function_module(args, body, result), inputs)[0]
    module = function_module(args, body, result)
    composite = next(op.name for op in module.walk() if op.name.startswith("ttir."))
    make_pass("ttir-decompose-composites").apply(make_context(), module)
    module.verify()
    assert composite not in [op.name for op in module.walk()]
    after = run_function(module, inputs)[0]
    torch.testing.assert_close(after, before, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("options, finite", [("", False), ("stable-softmax=true", True)])
def test_stable_softmax_subtracts_the_max_without_numeric_stable(options, finite):
    """`stable-softmax` subtracts the max even when `numericStable` is false: exp of logits of a few hundred is
    inf in f32, and inf / inf makes the row NaN (as upstream's decomposition gives without the option)."""
    body = ('  %0 = "ttir.softmax"(%a0) <{dimension = -1 : si32, numericStable = false}> : '
            '(tensor<4x12xf32>) -> tensor<4x12xf32>\n  return %0 : tensor<4x12xf32>')
    module = function_module(["4x12"], body, "4x12")
    make_pass("ttir-decompose-composites", options).apply(make_context(), module)
    x = torch.randn(4, 12, generator=torch.Generator().manual_seed(3)) * 300
    out = run_function(module, [x])[0]
    assert bool(out.isfinite().all()) == finite
    if finite:
        torch.testing.assert_close(out, torch.softmax(x, -1))


def test_an_attention_with_a_sink_stays():
    args = ["1x2x8x8", "1x2x8x8", "1x2x8x8", "1x2x1x1"]
    body = ('  %0 = "ttir.scaled_dot_product_attention"(%a0, %a1, %a2, %a3) <{is_causal = true, '
            'operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}> : (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>, '
            'tensor<1x2x8x8xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x8x8xf32>\n  return %0 : tensor<1x2x8x8xf32>')
    module = function_module(args, body, "1x2x8x8")
    make_pass("ttir-decompose-composites").apply(make_context(), module)
    assert "ttir.scaled_dot_product_attention" in [op.name for op in module.walk()]
