"""ttir.conv1d (TTNN runs it as a conv2d over a height of one) against torch.nn.functional.conv1d."""

import pytest
import torch

from ttmlir.compiler import compile_ttir, lower
from ttmlir.diagnostics import DiagnosticError
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program


def ty(shape):
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


def conv1d_module(x, w, out, props, bias=None):
    operands = ["%x", "%w"] + (["%b"] if bias else [])
    shapes = [x, w] + ([bias] if bias else [])
    args = ", ".join(f"{name}: {ty(s)}" for name, s in zip(operands, shapes))
    return (f"func.func @f({args}) -> {ty(out)} {{\n"
            f"  %0 = \"ttir.conv1d\"({', '.join(operands)}) <{{{props}}}> : ({', '.join(ty(s) for s in shapes)}) -> "
            f"{ty(out)}\n  return %0 : {ty(out)}\n}}\n")


CASES = [  # (input, weight, bias, result, properties, torch layout of the input: NLC or NCL)
    ((2, 20, 8), (6, 4, 3), (1, 1, 6), (2, 11, 6),
     "stride = 2 : i32, padding = array<i32: 1, 2>, dilation = 1 : i32, groups = 2 : i32", "nlc"),
    ((1, 4, 17), (5, 4, 3), None, (1, 5, 13),
     "stride = array<i32: 1>, padding = 0 : i32, dilation = 2 : i32, groups = 1 : i32, length_dim = 2 : i64, "
     "channel_dim = 1 : i64", "ncl"),
]


@pytest.mark.parametrize("x_shape, w_shape, b_shape, out_shape, props, layout", CASES)
def test_conv1d_against_torch(x_shape, w_shape, b_shape, out_shape, props, layout):
    gen = torch.Generator().manual_seed(0)
    x, w = torch.randn(x_shape, generator=gen), torch.randn(w_shape, generator=gen)
    inputs = [x, w] + ([torch.randn(b_shape, generator=gen)] if b_shape else [])
    binary = Binary(data=compile_ttir(conv1d_module(x_shape, w_shape, out_shape, props, b_shape)))
    (got,), _ = run_program(binary, 0, inputs, MeshDevice(), exact=True)
    stride = 2 if "stride = 2" in props else 1
    padding = (1, 2) if "array<i32: 1, 2>" in props else (0, 0)
    ncl = x if layout == "ncl" else x.transpose(1, 2)
    ncl = torch.nn.functional.pad(ncl, padding)
    want = torch.nn.functional.conv1d(ncl, w, inputs[2].flatten() if b_shape else None, stride=stride,
                                      dilation=2 if "dilation = 2" in props else 1,
                                      groups=2 if "groups = 2" in props else 1)
    want = want if layout == "ncl" else want.transpose(1, 2)
    assert got.data.shape == want.shape
    assert torch.allclose(got.data.float(), want, atol=1e-4, rtol=1e-4)


def test_conv1d_verifier():
    text = conv1d_module((1, 16, 8), (4, 3, 3), (1, 14, 4), "stride = 1 : i32, padding = 0 : i32, "
                                                             "dilation = 1 : i32, groups = 2 : i32")
    with pytest.raises(DiagnosticError, match=r"expected weight's input channel dimension \(3\) to match "
                                              r"in_channels / groups \(4\)"):
        lower(text, "<test>", "ttir-to-ttnn-backend-pipeline")
