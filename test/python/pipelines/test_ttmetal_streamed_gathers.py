"""Gathers that stream: a reshape or permute whose output elements move between tiles (a `d2m.view_layout` of
logical coordinates, read by face rows or element by element) fills each output tile in a CB of a few pages when
whole shards of its copies would not fit beside the tensors live around it, reading its source from DRAM; an
element gather's scratch page is a buffer of its own. Compiled by `--ttir-to-ttmetal-pipeline` on one core
(override-device-shape=1,1), run on the simulated grid against torch (exact: the elements are only moved)."""

import pytest
import torch

from ttmlir.asm import parse_text
from ttmlir.dialects import make_context
from ttmlir.passes import make_pass
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate


def compile_module(text: str):
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    make_pass("ttir-to-ttmetal-pipeline", "override-device-shape=1,1").apply(ctx, module)
    module.verify()  # each kernel's CB ports among its program's operands
    return module


def cb_buffers(module) -> list[list[str]]:
    """Each program's CB buffers, by type."""
    result = []
    for op in module.walk():
        if op.name == "ttmetal.enqueue_program":
            buffers = op.properties["operandSegmentSizes"].get_values()[0]
            result.append([str(v.type) for v in op.operands[buffers:]])
    return result


def one_op(op: str, props: str, source: str, result: str) -> str:
    return (f"func.func @f(%x: tensor<{source}xf32>) -> tensor<{result}xf32> {{\n"
            f"  %0 = \"ttir.{op}\"(%x) <{{{props}}}> : (tensor<{source}xf32>) -> tensor<{result}xf32>\n"
            f"  return %0 : tensor<{result}xf32>\n}}\n")


def run(module, shape: tuple[int, ...]) -> tuple[torch.Tensor, torch.Tensor]:
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(5))
    (out,), _ = run_program(translate(module), [x], exact=True)
    return x, out


def test_a_reshape_padding_each_row_to_a_matrix_streams_through_dram():
    # 8x1024 to 8x1x1024: each row becomes a matrix of its own, padded to 32 rows: 256 output tiles (1 MiB of f32)
    # on the one core, more than half its free L1: the output lives in DRAM and the gather fills 2-page CBs. The
    # reshaped tensor is computed (an argument's reshape is a view the host makes) and returned too, so the
    # pipeline keeps the reshape after the neg.
    module = compile_module(
        'func.func @f(%x: tensor<8x1024xf32>) -> (tensor<8x1x1024xf32>, tensor<8x1024xf32>) {\n'
        '  %n = "ttir.neg"(%x) : (tensor<8x1024xf32>) -> tensor<8x1024xf32>\n'
        '  %0 = "ttir.reshape"(%n) <{shape = [8 : i32, 1 : i32, 1024 : i32]}> : (tensor<8x1024xf32>) -> '
        'tensor<8x1x1024xf32>\n'
        '  return %0, %n : tensor<8x1x1024xf32>, tensor<8x1024xf32>\n}\n')
    gather = [cbs for cbs in cb_buffers(module) if any("1x1x8x32" in t for t in cbs)]
    assert not gather  # no CB holds the output's shard
    pages = cb_buffers(module)[-1]  # the gather's, the last program
    assert pages and all("1x1x1x2x" in t for t in pages)
    dram = [str(op.results[0].type) for op in module.walk() if op.name == "ttmetal.create_buffer"
            and "memory_space<dram>" in str(op.results[0].type)]
    assert any("1x1x8x32" in t for t in dram)
    x = torch.randn(8, 1024, generator=torch.Generator().manual_seed(5))
    (out, negated), _ = run_program(translate(module), [x], exact=True)
    assert torch.equal(out, -x.reshape(8, 1, 1024))
    assert torch.equal(negated, -x)


@pytest.mark.parametrize("shape, order", [((2, 64, 8, 32), (0, 3, 1, 2)),  # element by element
                                          ((4, 64, 8, 64), (0, 2, 1, 3))])  # by face rows: the last dim kept
def test_a_four_d_permute_too_large_for_whole_copies_streams(shape, order):
    result = tuple(shape[d] for d in order)
    dims = lambda s: "x".join(map(str, s))
    module = compile_module(one_op("permute", f"permutation = array<i64: {', '.join(map(str, order))}>",
                                   dims(shape), dims(result)))
    streamed = [cbs for cbs in cb_buffers(module) if any("1x1x1x2x" in t for t in cbs)]
    assert streamed  # the gather's CBs are a stream's pages
    x, out = run(module, shape)
    assert torch.equal(out, x.permute(*order))
