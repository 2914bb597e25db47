"""TTIR data-movement ops (reshape, squeeze, unsqueeze, permute, broadcast, slice_static, pad, repeat, concat) through
`--ttir-to-ttmetal-pipeline`, run from the `.ttm` on the simulated grid against torch. Those keeping every element in
its tile copy blocks; others copy the input's logical view (ttir_to_d2m/row_gather.py): by face rows where each output
face row is one of the input's (the last dim kept, or changed between multiples of 16; slices starting it at a
multiple of 16), else element by element. A function whose tensors together exceed L1 runs when those live at once
fit."""

import pytest
import torch

from test_ttmetal_pipeline import compile_ttir
from ttmlir.asm import parse_text
from ttmlir.conversion.d2m_to_ttkernel.views import gather_of
from ttmlir.dialects import d2m, make_context
from ttmlir.passes import make_pass
from ttmlir.runtime.metal.program import run_program


def one_op(op: str, attrs: str, source: tuple[int, ...], result: tuple[int, ...]) -> str:
    s, r = (f"tensor<{'x'.join(map(str, t))}xf32>" for t in (source, result))
    # an exp before and after, so the op reads a program's result and feeds another
    return (f"func.func @f(%a: {s}) -> {r} {{\n  %0 = \"ttir.exp\"(%a) : ({s}) -> {s}\n"
            f"  %1 = \"ttir.{op}\"(%0) <{{{attrs}}}> : ({s}) -> {r}\n  %2 = \"ttir.neg\"(%1) : ({r}) -> {r}\n"
            f"  return %2 : {r}\n}}\n")


CASES = [
    ("squeeze", "dim = 0 : si32", (1, 12, 96), (12, 96), lambda x: x.squeeze(0)),
    ("unsqueeze", "dim = 0 : si32", (40, 64), (1, 40, 64), lambda x: x.unsqueeze(0)),
    ("reshape", "shape = [2 : i32, 3 : i32, 20 : i32, 64 : i32]", (6, 20, 64), (2, 3, 20, 64),
     lambda x: x.reshape(2, 3, 20, 64)),
    ("reshape", "shape = [128 : i32, 96 : i32]", (2, 64, 96), (128, 96), lambda x: x.reshape(128, 96)),
    ("reshape", "shape = [1 : i32, 1 : i32, 160 : i32]", (160,), (1, 1, 160), lambda x: x.reshape(1, 1, 160)),
    # rows regrouped between tiles (each gathered from the input's row of its index, the padding zeroed)
    ("unsqueeze", "dim = 1 : si32", (40, 64), (40, 1, 64), lambda x: x.unsqueeze(1)),
    ("reshape", "shape = [32 : i32, 1 : i32]", (32, 1, 1), (32, 1), lambda x: x.reshape(32, 1)),
    ("reshape", "shape = [6 : i32, 20 : i32, 70 : i32]", (3, 40, 70), (6, 20, 70), lambda x: x.reshape(6, 20, 70)),
    # the last dim split or merged in face rows of 16
    ("reshape", "shape = [1 : i32, 1 : i32, 12 : i32, 64 : i32]", (768,), (1, 1, 12, 64),
     lambda x: x.reshape(1, 1, 12, 64)),
    ("reshape", "shape = [1 : i32, 32 : i32, 16 : i32, 16 : i32]", (1, 32, 256), (1, 32, 16, 16),
     lambda x: x.reshape(1, 32, 16, 16)),
    ("reshape", "shape = [3 : i32, 160 : i32]", (3, 5, 2, 16), (3, 160), lambda x: x.reshape(3, 160)),
    ("permute", "permutation = array<i64: 1, 0>", (64, 96), (96, 64), lambda x: x.T),
    ("permute", "permutation = array<i64: 0, 2, 1>", (1, 40, 70), (1, 70, 40), lambda x: x.transpose(1, 2)),
    ("permute", "permutation = array<i64: 1, 0, 2, 3>", (1, 3, 40, 64), (3, 1, 40, 64), lambda x: x.transpose(0, 1)),
    ("slice_static", "begins = [0 : i32, 0 : i32, 0 : i32, 64 : i32], ends = [4 : i32, 3 : i32, 40 : i32, 128 : i32], "
     "step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]", (4, 3, 40, 128), (4, 3, 40, 64), lambda x: x[..., 64:]),
    ("slice_static", "begins = [0 : i32, 3 : i32, 0 : i32, 32 : i32], ends = [1 : i32, 5 : i32, 20 : i32, 64 : i32], "
     "step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]", (1, 6, 20, 96), (1, 2, 20, 32), lambda x: x[:, 3:5, :, 32:64]),
    ("slice_static", "begins = [0 : i32, 32 : i32], ends = [40 : i32, 70 : i32], step = [1 : i32, 1 : i32]", (40, 70),
     (40, 38), lambda x: x[:, 32:]),
    ("broadcast", "broadcast_dimensions = array<i64: 1, 1, 96>", (4, 40, 1), (4, 40, 96), lambda x: x.expand(4, 40, 96)),
    ("broadcast", "broadcast_dimensions = array<i64: 1, 1, 1>", (2, 40, 64), (2, 40, 64), lambda x: x),
    ("broadcast", "broadcast_dimensions = array<i64: 64, 1>", (1, 96), (64, 96), lambda x: x.expand(64, 96)),
    ("broadcast", "broadcast_dimensions = array<i64: 1, 50, 70>", (1, 1, 1), (1, 50, 70), lambda x: x.expand(1, 50, 70)),
    ("broadcast", "broadcast_dimensions = array<i64: 3, 40, 64>", (1, 1, 1), (3, 40, 64), lambda x: x.expand(3, 40, 64)),
    ("broadcast", "broadcast_dimensions = array<i64: 3, 1, 1>", (1, 40, 96), (3, 40, 96), lambda x: x.expand(3, 40, 96)),
    ("broadcast", "broadcast_dimensions = array<i64: 2, 4, 1, 1>", (1, 1, 1, 96), (2, 4, 1, 96),
     lambda x: x.expand(2, 4, 1, 96)),
    # face rows moved between tiles through the logical view: permutes keeping the last dim, slices of rows,
    # matrices and steps, broadcasts along batch dims and rows at once, and (split in two) along the last dim too
    ("permute", "permutation = array<i64: 1, 0, 2>", (2, 40, 64), (40, 2, 64), lambda x: x.permute(1, 0, 2)),
    ("permute", "permutation = array<i64: 2, 0, 1, 3>", (3, 5, 2, 48), (2, 3, 5, 48), lambda x: x.permute(2, 0, 1, 3)),
    ("slice_static", "begins = [0 : i32, 16 : i32], ends = [40 : i32, 32 : i32], step = [1 : i32, 1 : i32]", (40, 64),
     (40, 16), lambda x: x[:, 16:32]),
    ("slice_static", "begins = [0 : i32, 0 : i32], ends = [20 : i32, 64 : i32], step = [1 : i32, 1 : i32]", (40, 64),
     (20, 64), lambda x: x[:20]),
    ("slice_static", "begins = [1 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [2 : i32, 2 : i32, 32 : i32, 32 : i32], "
     "step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]", (2, 3, 32, 32), (1, 2, 32, 32), lambda x: x[1:2, :2]),
    ("slice_static", "begins = [1 : i32, 3 : i32, 16 : i32], ends = [5 : i32, 40 : i32, 48 : i32], "
     "step = [3 : i32, 5 : i32, 1 : i32]", (5, 40, 48), (2, 8, 32), lambda x: x[1:5:3, 3:40:5, 16:48]),
    ("broadcast", "broadcast_dimensions = array<i64: 4, 1, 64>", (1, 40, 1), (4, 40, 64), lambda x: x.expand(4, 40, 64)),
    ("broadcast", "broadcast_dimensions = array<i64: 1, 40, 1>", (4, 1, 64), (4, 40, 64), lambda x: x.expand(4, 40, 64)),
    ("broadcast", "broadcast_dimensions = array<i64: 2, 1, 40, 1>", (1, 12, 1, 64), (2, 12, 40, 64),
     lambda x: x.expand(2, 12, 40, 64)),
    # each matrix of a batch transposed tile by tile; the last dim moved to the rows or the rows to the last dim (NCHW
    # to NHWC and back) as that swap and a permute keeping the last dim
    ("permute", "permutation = array<i64: 0, 2, 1>", (2, 40, 64), (2, 64, 40), lambda x: x.transpose(1, 2)),
    ("transpose", "dim0 = -1 : si32, dim1 = -2 : si32", (3, 2, 40, 70), (3, 2, 70, 40), lambda x: x.transpose(2, 3)),
    ("permute", "permutation = array<i64: 2, 0, 1>", (2, 40, 50), (50, 2, 40), lambda x: x.permute(2, 0, 1)),
    ("permute", "permutation = array<i64: 0, 2, 3, 1>", (2, 24, 20, 40), (2, 20, 40, 24), lambda x: x.permute(0, 2, 3, 1)),
    ("permute", "permutation = array<i64: 0, 3, 1, 2>", (2, 20, 40, 24), (2, 24, 20, 40), lambda x: x.permute(0, 3, 1, 2)),
    ("permute", "permutation = array<i64: 3, 1, 0, 2>", (5, 3, 40, 20), (20, 3, 5, 40), lambda x: x.permute(3, 1, 0, 2)),
    # element by element where face rows split: the last dim regrouped, moved, sliced inside a face row or padded
    ("reshape", "shape = [12 : i32, 32 : i32, 100 : i32]", (12, 3200), (12, 32, 100), lambda x: x.reshape(12, 32, 100)),
    ("reshape", "shape = [40 : i32, 48 : i32]", (40, 2, 24), (40, 48), lambda x: x.reshape(40, 48)),
    ("reshape", "shape = [128 : i32, 32 : i32]", (32, 128, 1), (128, 32), lambda x: x.reshape(128, 32)),
    ("reshape", "shape = [5 : i32, 32 : i32]", (4, 40, 1), (5, 32), lambda x: x.reshape(5, 32)),
    ("slice_static", "begins = [0 : i32, 8 : i32], ends = [40 : i32, 32 : i32], step = [1 : i32, 1 : i32]", (40, 64),
     (40, 24), lambda x: x[:, 8:32]),
    ("slice_static", "begins = [1 : i32, 3 : i32, 16 : i32, 2 : i32], ends = [6 : i32, 7 : i32, 40 : i32, "
     "4 : i32], step = [2 : i32, 1 : i32, 3 : i32, 1 : i32]", (6, 8, 40, 4), (3, 4, 8, 2),
     lambda x: x[1:6:2, 3:7, 16:40:3, 2:4]),
    ("pad", "padding = array<i32: 1, 0, 0, 5, 3, 2>, value = 0.000000e+00 : f32", (2, 20, 30), (3, 25, 35),
     lambda x: torch.nn.functional.pad(x, (3, 2, 0, 5, 1, 0))),
    ("repeat", "repeat_dimensions = array<i64: 2, 1, 3>", (2, 3, 5), (4, 3, 15), lambda x: x.repeat(2, 1, 3)),
]


@pytest.mark.parametrize("a, b", [((1, 1, 1, 128), (32, 1, 1, 128)), ((8, 50, 1), (8, 50, 96)),
                                  ((64,), (2, 3, 40, 64)), ((3, 1, 1), (3, 20, 40)), ((1, 3, 1, 64), (2, 3, 40, 1)),
                                  ((1,), (17,))])
def test_elementwise_implicit_broadcasts_run_on_the_device(a, b):
    # an operand broadcast along batch dims or several matrices' rows is broadcast first; along the last dim of each
    # matrix the tile map reads it
    r = torch.broadcast_shapes(a, b)
    ta, tb, tr = (f"tensor<{'x'.join(map(str, t))}xf32>" for t in (a, b, r))
    source = (f"func.func @f(%a: {ta}, %b: {tb}) -> {tr} {{\n"
              f"  %0 = \"ttir.subtract\"(%a, %b) : ({ta}, {tb}) -> {tr}\n  return %0 : {tr}\n}}\n")
    x, y = (torch.randn(t, generator=torch.Generator().manual_seed(i)) for i, t in enumerate((a, b)))
    (out,), _ = run_program(compile_ttir(source), [x, y])
    assert torch.allclose(out, x - y, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("op, attrs, source, result, expected", CASES)
def test_data_movement_ops_run_on_the_device(op, attrs, source, result, expected):
    x = torch.randn(source, generator=torch.Generator().manual_seed(0))
    (out,), _ = run_program(compile_ttir(one_op(op, attrs, source, result)), [x])
    assert out.shape == result
    assert torch.allclose(out, -expected(torch.exp(x)), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("order, shape", [((0, 2, 3, 1), (2, 64, 28, 28)), ((0, 3, 1, 2), (2, 28, 28, 64))])
def test_channel_permutes_gather_no_element_alone(order, shape):
    # a convolution's NCHW input seen channels last and its result put back: each view the programs read moves whole
    # face rows (or tiles), none gathers element by element
    result = tuple(shape[d] for d in order)
    ctx = make_context()
    module, _ = parse_text(ctx, one_op("permute", f"permutation = array<i64: {', '.join(map(str, order))}>", shape,
                                       result))
    make_pass("ttir-to-d2m").apply(ctx, module)
    views = [op for op in module.walk() if isinstance(op, d2m.ViewLayoutOp)]
    logical = [op for op in views if op.remapping.data.num_dims == 3]
    assert len(views) == 2 and len(logical) == 1  # a swap of tiles and a permute keeping the last dim
    view = logical[0]
    shapes = (tuple(v.type.encoding.data.logical_shape) for v in (view.input, view.result))
    assert gather_of(view.remapping.data, *shapes).faces


def test_rows_regrouped_across_padded_matrices_run_right():
    # 2 matrices of 20 rows (each padded to a tile of rows) regrouped into 40 rows in two tiles
    s, r = "tensor<2x20x64xf32>", "tensor<40x64xf32>"
    source = (f"func.func @f(%a: {s}) -> {r} {{\n"
              f"  %1 = \"ttir.reshape\"(%a) <{{shape = [40 : i32, 64 : i32]}}> : ({s}) -> {r}\n"
              f"  return %1 : {r}\n}}\n")
    x = torch.randn(2, 20, 64, generator=torch.Generator().manual_seed(0))
    (out,), _ = run_program(compile_ttir(source), [x])
    assert torch.equal(out, x.reshape(40, 64))


def test_buffers_are_freed_when_dead_so_only_the_tensors_live_at_once_must_fit_l1():
    # each 2048x2048 f32 tensor takes 256 KiB of every core's L1: the six tensors of the chain need more than
    # a core's 1.4 MiB, three at once do not
    t = "tensor<2048x2048xf32>"
    ops = ["add", "exp", "neg", "abs", "relu"]
    body, last = [], "%a"
    for i, op in enumerate(ops):
        uses = f"{last}, %b" if op == "add" else last
        types = f"{t}, {t}" if op == "add" else t
        body.append(f"  %{i} = \"ttir.{op}\"({uses}) : ({types}) -> {t}")
        last = f"%{i}"
    text = f"func.func @f(%a: {t}, %b: {t}) -> {t} {{\n" + "\n".join(body) + f"\n  return {last} : {t}\n}}\n"
    generator = torch.Generator().manual_seed(0)
    a, b = (torch.randn(2048, 2048, generator=generator) for _ in range(2))
    (out,), _ = run_program(compile_ttir(text), [a, b])
    assert torch.allclose(out, torch.relu(torch.abs(-torch.exp(a + b))), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dim, sizes", [(2, (10, 7, 3)), (0, (2, 3)), (1, (32, 8))])
def test_concats_run_on_the_device(dim, sizes):
    # each input padded with zeros at its place along the dim, the pads added
    shapes = [tuple(n if d == dim else (2, 20, 40)[d] for d in range(3)) for n in sizes]
    out_shape = tuple(sum(sizes) if d == dim else (2, 20, 40)[d] for d in range(3))
    types = [f"tensor<{'x'.join(map(str, t))}xf32>" for t in (*shapes, out_shape)]
    names = ", ".join(f"%a{i}" for i in range(len(sizes)))
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types[:-1]))
    source = (f"func.func @f({args}) -> {types[-1]} {{\n  %0 = \"ttir.concat\"({names}) <{{dim = {dim} : si32}}> : "
              f"({', '.join(types[:-1])}) -> {types[-1]}\n  return %0 : {types[-1]}\n}}\n")
    xs = [torch.randn(t, generator=torch.Generator().manual_seed(i)) for i, t in enumerate(shapes)]
    (out,), _ = run_program(compile_ttir(source), xs)
    assert torch.equal(out, torch.cat(xs, dim))
