"""Distributed norms over rows split across the chips of a mesh: ttnn.distributed_layer_norm (the runtime's
kernel, and --ttnn-decomposition's pre/post all-gather form) computes the layer norm of the whole rows, as
distributed_rms_norm's fused and decomposed forms compute its RMS norm (test_runtime)."""

import pytest
import torch
from xdsl.dialects.builtin import DenseArrayBase, i32
from xdsl.rewriter import Rewriter

from ttmlir.compiler import lower
from ttmlir.dialects.ttnn import TTNN_OP_CLASSES
from ttmlir.passes import run_pass
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.target.ttnn import translate

ROWS, WIDTH = 64, 128


def ty(shape):
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


def shard(value, shape, out, direction="full_to_shard"):
    return (f'"ttir.mesh_shard"({value}) <{{shard_dims = array<i64: -1, 1>, shard_direction = '
            f"#ttcore.shard_direction<{direction}>, shard_shape = array<i64: 1, 2>, shard_type = "
            f"#ttcore.shard_type<devices>}}> : ({ty(shape)}) -> {ty(out)}")


HALF = (ROWS, WIDTH // 2)
PROGRAM = f"""func.func @f(%x: {ty((ROWS, WIDTH))}, %w: {ty((WIDTH,))}, %b: {ty((WIDTH,))}) -> {ty((ROWS, WIDTH))} {{
  %0 = {shard("%x", (ROWS, WIDTH), HALF)}
  %1 = "ttir.mesh_partition"(%w) <{{cluster_axis = 1 : ui32, dim = 0 : si32}}> : ({ty((WIDTH,))}) -> {ty((WIDTH // 2,))}
  %2 = "ttir.mesh_partition"(%b) <{{cluster_axis = 1 : ui32, dim = 0 : si32}}> : ({ty((WIDTH,))}) -> {ty((WIDTH // 2,))}
  %3 = "ttir.distributed_rms_norm"(%0, %1) <{{cluster_axis = 1 : ui32, epsilon = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}}> : ({ty(HALF)}, {ty((WIDTH // 2,))}) -> {ty(HALF)}
  %4 = "ttir.add"(%3, %2) : ({ty(HALF)}, {ty((WIDTH // 2,))}) -> {ty(HALF)}
  %5 = {shard("%4", HALF, (ROWS, WIDTH), "shard_to_full")}
  return %5 : {ty((ROWS, WIDTH))}
}}
"""


def layer_norm_module():
    """The program in TTNN with its rms_norm replaced by a layer_norm of the same input and weight, and the
    bias the add after it adds (the add kept: it then adds the bias twice)."""
    module = lower(PROGRAM, "<test>", "ttir-to-ttnn-backend-pipeline",
                   "mesh-shape=1,2 enable-ttnn-decomposition-pass=false")
    rms = next(op for op in module.walk() if op.name == "ttnn.distributed_rms_norm")
    groups = rms.operand_groups()
    bias = [op for op in module.walk() if op.name == "ttnn.mesh_partition"][1].results[0]  # each chip's half
    norm = TTNN_OP_CLASSES["distributed_layer_norm"].create(
        operands=[groups["input"][0], groups["weight"][0], bias, groups["device"][0]],
        result_types=[rms.results[0].type],
        properties={"cluster_axis": rms.prop("cluster_axis"), "epsilon": rms.prop("epsilon"),
                    "operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 1, 1, 0, 1])})
    Rewriter.replace_op(rms, norm)
    return module


def run(module, inputs):
    binary = Binary(data=translate(module))
    outputs, _ = run_program(binary, 0, inputs, MeshDevice(mesh_shape=(1, 2)), exact=True)
    return outputs[0].data


@pytest.mark.parametrize("decomposed", [False, True])
def test_distributed_layer_norm_normalizes_whole_rows(decomposed):
    g = torch.Generator().manual_seed(5)
    x, w, b = torch.randn(ROWS, WIDTH, generator=g) * 3 + 1, torch.randn(WIDTH, generator=g), torch.randn(WIDTH, generator=g)
    module = layer_norm_module()
    if decomposed:
        module = run_pass(module, "ttnn-decomposition")
        assert not [op for op in module.walk() if op.name == "ttnn.distributed_layer_norm"]
    out = run(module, [x, w, b])
    expected = torch.nn.functional.layer_norm(x, [WIDTH], w, b, 1e-5) + b
    torch.testing.assert_close(out, expected, rtol=1e-3, atol=1e-3)
