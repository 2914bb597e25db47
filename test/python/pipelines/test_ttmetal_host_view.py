"""Reshapes of function arguments made on the host (`conversion/ttir_to_d2m/host_view.py`): a convolution's 3x3
weight reaches the device as its (O, C*KH*KW) matrix, not as O*C tile-padded windows, and the results are exact."""

import math

import pytest
import torch
import torch.nn.functional as F
from xdsl.dialects.builtin import MemRefType
from xdsl.dialects.memref import CopyOp, ReinterpretCastOp

from ttmlir import hardware
from ttmlir.asm import parse_text
from ttmlir.dialects import make_context, ttcore, ttmetal
from ttmlir.passes import make_pass
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

from test_ttmetal_cache_updates import t


def compile_module(text: str):
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    make_pass("ttir-to-ttmetal-pipeline", "").apply(ctx, module)
    return module


def host_function(module):
    return next(op for op in module.walk() if op.name == "func.func" and op.body.blocks and
                "ttkernel.thread" not in op.attributes and op.body.block.args)


def writes_of(func, arg) -> list[MemRefType]:
    """The device buffers the host writes from argument `arg` (through host copies and views of it)."""
    sources, buffers = {arg}, []
    for op in func.body.block.ops:
        if isinstance(op, (CopyOp, ReinterpretCastOp)) and op.operands[0] in sources:
            sources.add(op.destination if isinstance(op, CopyOp) else op.result)
        elif isinstance(op, ttmetal.EnqueueWriteBufferOp) and op.input in sources:
            buffers.append(op.output.type)
    return buffers


def device_bytes(t: MemRefType) -> int:
    element = t.element_type
    if not isinstance(element, ttcore.TileType):  # row-major elements
        return math.prod(t.get_shape()) * element.bitwidth // 8
    return math.prod(t.get_shape()) * hardware.tile_bytes(element.dtype, tuple(element.dims))


def small_ints(*shape, seed: int) -> torch.Tensor:
    """Integers in [-2, 2]: their products and sums over a window are exact in f32."""
    return torch.randint(-2, 3, shape, generator=torch.Generator().manual_seed(seed)).float()


@pytest.mark.parametrize("n, hw, c, o, groups", [(1, 6, 32, 16, 1), (2, 5, 16, 32, 2)])
def test_conv_weight_moves_as_its_matrix_and_is_exact(n, hw, c, o, groups):
    shapes = [(n, hw, hw, c), (o, c // groups, 3, 3)]
    result = (n, hw, hw, o)
    text = (f"func.func @conv(%x: {t(shapes[0], 'f32')}, %w: {t(shapes[1], 'f32')}) -> {t(result, 'f32')} {{\n"
            f"  %0 = \"ttir.conv2d\"(%x, %w) <{{dilation = array<i32: 1, 1>, groups = {groups} : i32, padding = "
            f"array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}}> : ({t(shapes[0], 'f32')}, {t(shapes[1], 'f32')})"
            f" -> {t(result, 'f32')}\n  return %0 : {t(result, 'f32')}\n}}\n")
    module = compile_module(text)
    func = host_function(module)
    (weight,) = writes_of(func, func.body.block.args[1])
    columns = c // groups * 9
    # the (O, C*KH*KW) matrix moved whole (in tiles, or in row-major shards an ungrouped weight's transpose tilizes),
    # not a tile per 3x3 window
    matrix_tiles = -(-o // 32) * -(-columns // 32)
    assert device_bytes(weight) <= 2 * matrix_tiles * hardware.tile_bytes("f32", (32, 32))
    assert device_bytes(weight) * 16 <= o * (c // groups) * hardware.tile_bytes("f32", (32, 32))
    inputs = [small_ints(*s, seed=i) for i, s in enumerate(shapes)]
    (out,), _ = run_program(translate(module), inputs)
    expected = F.conv2d(inputs[0].permute(0, 3, 1, 2).double(), inputs[1].double(), None, 1, 1, 1, groups)
    assert torch.equal(out.double(), expected.permute(0, 2, 3, 1))


def test_a_returned_reshape_of_an_argument_is_the_arguments_data():
    text = (f"func.func @flat(%a: {t((4, 3, 5), 'f32')}) -> {t((12, 5), 'f32')} {{\n"
            f"  %0 = \"ttir.reshape\"(%a) <{{shape = [12 : i32, 5 : i32]}}> : ({t((4, 3, 5), 'f32')}) -> "
            f"{t((12, 5), 'f32')}\n  return %0 : {t((12, 5), 'f32')}\n}}\n")
    module = compile_module(text)
    func = host_function(module)
    assert not [op for op in func.body.block.ops if isinstance(op, ttmetal.EnqueueProgramOp)]
    x = torch.randn(4, 3, 5)
    (out,), _ = run_program(translate(module), [x])
    assert torch.equal(out, x.reshape(12, 5))


def test_an_argument_used_whole_and_reshaped_is_moved_in_both_forms():
    a, b = t((2, 32, 64), "f32"), t((2, 2048), "f32")
    text = (f"func.func @both(%a: {a}, %b: {b}) -> ({a}, {b}) {{\n"
            f"  %0 = \"ttir.neg\"(%a) : ({a}) -> {a}\n"
            f"  %1 = \"ttir.reshape\"(%a) <{{shape = [2 : i32, 2048 : i32]}}> : ({a}) -> {b}\n"
            f"  %2 = \"ttir.multiply\"(%1, %b) : ({b}, {b}) -> {b}\n"
            f"  return %0, %2 : {a}, {b}\n}}\n")
    module = compile_module(text)
    func = host_function(module)
    assert len(writes_of(func, func.body.block.args[0])) == 2  # as it is for the neg, as its view for the multiply
    x, y = torch.randn(2, 32, 64), torch.randn(2, 2048)
    negated, product = run_program(translate(module), [x, y])[0]
    assert torch.equal(negated, -x)
    assert torch.allclose(product, x.reshape(2, 2048) * y)


def test_an_arguments_reshape_runs_through_the_staged_path_as_a_host_view():
    """Upstream's staged path bufferizes the reshape left on the host into the same reinterpret_cast."""
    from test_ttmetal_stage_pipelines import staged

    a, b = t((4, 8, 32), "f32"), t((32, 32), "f32")
    text = (f"func.func @f(%a: {a}, %b: {b}) -> {b} {{\n"
            f"  %0 = \"ttir.reshape\"(%a) <{{shape = [32 : i32, 32 : i32]}}> : ({a}) -> {b}\n"
            f"  %1 = \"ttir.add\"(%0, %b) : ({b}, {b}) -> {b}\n  return %1 : {b}\n}}\n")
    module = staged(text)
    func = host_function(module)
    assert [tuple(w.get_shape()[-2:]) for w in writes_of(func, func.body.block.args[0])] == [(32, 32)]
    x, y = torch.randn(4, 8, 32), torch.randn(32, 32)
    (out,), _ = run_program(translate(module), [x, y])
    assert torch.equal(out, x.reshape(32, 32) + y)
