"""--ttnn-decomposition splits a grouped conv wider than tt-metal's channel budget (4096) into convs over chunks of
whole groups, concatenated on the channel dim; the values are the unsplit conv's (both run on the simulator)."""

from __future__ import annotations

import pytest
import torch
from xdsl.dialects.builtin import TensorType, f32

from ttmlir.asm import parse_text
from ttmlir.dialects import make_context, ttnn
from ttmlir.passes import make_pass
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.target.ttnn import translate

def ttnn_type(shape):
    return TensorType(f32, shape, ttnn.layout_for(tuple(shape), f32, "dram", True))


CASES = {  # the conv, its operand shapes, properties, and the chunks it splits into
    "depthwise_conv2d": dict(op="conv2d", x=(1, 1, 16, 8192), w=(8192, 1, 3, 3), bias=True, out=(1, 1, 16, 8192),
                             props="batch_size = 1 : i32, dilation = array<i32: 1, 1>, groups = 8192 : i32, "
                                   "in_channels = 8192 : i32, input_height = 4 : i32, input_width = 4 : i32, "
                                   "kernel_size = array<i32: 3, 3>, out_channels = 8192 : i32, "
                                   "padding = array<i32: 1, 1>, stride = array<i32: 1, 1>", chunks=2),
    "grouped_conv1d": dict(op="conv1d", x=(1, 8, 6144), w=(6144, 96, 3), bias=False, out=(1, 1, 8, 6144),
                           props="batch_size = 1 : i32, dilation = 1 : i32, groups = 64 : i32, "
                                 "in_channels = 6144 : i32, input_length = 8 : i32, kernel_size = 3 : i32, "
                                 "out_channels = 6144 : i32, padding = array<i32: 1, 1>, stride = 1 : i32", chunks=2),
}


def _module(case: dict):
    types = [ttnn_type(case["x"]), ttnn_type(case["w"])]
    if case["bias"]:
        types.append(ttnn_type((1, 1, 1, case["w"][0])))
    out = ttnn_type(case["out"])
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    names = ", ".join(f"%a{i}" for i in range(len(types)))
    text = f"""func.func @f({args}) -> {out} attributes {{tt.function_type = "forward_device"}} {{
  %d = "ttnn.get_device"() <{{mesh_offset = #ttnn<mesh_offset 0x0>, mesh_shape = #ttnn<mesh_shape 1x1>}}> : () -> !ttnn.device
  %0 = "ttnn.{case['op']}"({names}, %d) <{{{case['props']}}}> : ({", ".join(map(str, types))}, !ttnn.device) -> {out}
  return %0 : {out}
}}"""
    module = parse_text(make_context(), text)[0]
    make_pass("ttcore-register-device").apply(make_context(), module)
    return module


@pytest.mark.parametrize("name", CASES)
def test_a_wide_grouped_conv_is_split_and_computes_the_same(name):
    case = CASES[name]
    torch.manual_seed(0)
    inputs = [torch.randn(case["x"]), torch.randn(case["w"])] + \
        ([torch.randn(1, 1, 1, case["w"][0])] if case["bias"] else [])
    (want,), _ = run_program(Binary(data=translate(_module(case))), 0, inputs, MeshDevice(), exact=True)
    module = _module(case)
    make_pass("ttnn-decomposition").apply(make_context(), module)
    module.verify()
    convs = [op for op in module.walk() if op.name == f"ttnn.{case['op']}"]
    assert len(convs) == case["chunks"] and all(op.prop("in_channels").value.data <= 4096 for op in convs)
    (got,), _ = run_program(Binary(data=translate(module)), 0, inputs, MeshDevice(), exact=True)
    torch.testing.assert_close(got.data.float(), want.data.float(), rtol=1e-5, atol=1e-4)


def test_a_conv_within_the_budget_is_left_alone():
    case = dict(CASES["depthwise_conv2d"], x=(1, 1, 16, 512), w=(512, 1, 3, 3), out=(1, 1, 16, 512),
                props=CASES["depthwise_conv2d"]["props"].replace("8192", "512"))
    module = _module(case)
    make_pass("ttnn-decomposition").apply(make_context(), module)
    assert [op.name for op in module.walk() if op.name.startswith("ttnn.") and op.name != "ttnn.get_device"] == \
        ["ttnn.conv2d"]
