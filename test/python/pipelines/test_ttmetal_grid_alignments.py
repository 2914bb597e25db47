"""Tensors padded to split over the device grid (upstream's grid-aware dim alignments): a dim larger than a tile per
core of the grid's matching dim is padded at the tensor's end to a whole number of tiles per core, and the padding
is not data. Each program compiled with `--ttir-to-ttmetal-pipeline`, run on the simulated chip against numpy:
reductions and softmax along and across padded dims, a matmul contracting a padded dim, elementwise ops on padded
tensors; and the alignments themselves."""

import numpy as np
import pytest
import torch

from test_ttmetal_pipeline import compile_ttir
from ttmlir.asm import parse_text
from ttmlir.dialects import make_context
from ttmlir.passes import make_pass
from ttmlir.dialects.ttcore_alignments import (compute_grid_aware_dim_alignments,
                                               compute_selected_grid_dim_alignments, physical_shape)
from ttmlir.runtime.metal.program import run_program

BH = "mock-system-desc-arch=blackhole"


def _t(shape) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


def _program(body: str, args: list[tuple[int, ...]], result: tuple[int, ...]) -> str:
    params = ", ".join(f"%a{i}: {_t(s)}" for i, s in enumerate(args))
    return f"func.func @f({params}) -> {_t(result)} {{\n{body}  return %r : {_t(result)}\n}}\n"


def _run(text: str, xs: list[np.ndarray], arch: str = BH) -> np.ndarray:
    (out,), _ = run_program(compile_ttir(text, arch), [torch.from_numpy(x) for x in xs])
    return out.float().numpy()


def _ttmetal(text: str) -> str:
    """The host program `--ttir-to-ttmetal-pipeline` makes of `text` on Blackhole, printed."""
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    make_pass("ttir-to-ttmetal-pipeline", BH).apply(ctx, module)
    return str(module)


def _inputs(*shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


@pytest.mark.parametrize("logical, grid, expected", [
    ((512, 1), (10, 13), (320, 32)),  # rows past 10 tiles: a multiple of 10 tiles
    ((512, 128), (10, 13), (320, 32)),  # 4 column tiles fit 13 cores
    ((300, 600), (10, 13), (32, 416)),  # 10 row tiles fill 10 cores exactly; 19 column tiles past 13
    ((9, 43, 7), (8, 8), (256, 32, 32)),  # 9 matrices of 2 tiles: the collapsed rows padded, not the matrices
    ((1000,), (8, 8), (256,)),
    ((20,), (8, 8), (32,)),
])
def test_grid_aware_alignments(logical, grid, expected):
    groups = [(0, len(logical) - 1), (len(logical) - 1, len(logical))] if len(logical) > 1 else [(0, 1)]
    assert compute_grid_aware_dim_alignments(logical, grid, groups) == expected


def test_the_padding_of_a_collapsed_group_is_at_its_end():
    groups = [(0, 2), (2, 3)]
    alignments = compute_grid_aware_dim_alignments((9, 43, 7), (8, 8), groups)
    assert physical_shape((9, 43, 7), alignments, groups) == (768, 32)


def test_a_dim_on_one_core_keeps_tile_alignment_and_another_splits_evenly():
    groups = [(0, 1), (1, 2)]
    assert compute_selected_grid_dim_alignments((512, 600), groups, (10, 1)) == (320, 32)
    # 19 column tiles over 13 cores: raised to 26 tiles (two per core)
    assert physical_shape((512, 600), compute_selected_grid_dim_alignments((512, 600), groups, (1, 13)), groups) == \
        (512, 832)


def test_a_reduction_keeping_its_dim_is_read_back_from_a_padded_grid():
    x, = _inputs((512, 128))
    text = _program('  %r = "ttir.min"(%a0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<512x128xf32>) -> '
                    'tensor<512x1xf32>\n', [(512, 128)], (512, 1))
    assert "memref<10x1x64x32xf32" in _ttmetal(text)
    assert np.allclose(_run(text, [x]), x.min(1, keepdims=True), atol=1e-2)


@pytest.mark.parametrize("op, reduce", [("sum", np.sum), ("max", np.max), ("min", np.min)])
@pytest.mark.parametrize("dim", [0, 1])
def test_a_reduction_of_a_computed_padded_tensor_ignores_its_padding(op, reduce, dim):
    # exp makes the padding hold exp(0) = 1 where it is computed: a reduction reading it must not count it
    shape = (700, 600)  # both dims past the grid's tiles: padded to 960 x 832 on Blackhole's 10x13
    x, = _inputs(shape)
    out = tuple(1 if d == dim else n for d, n in enumerate(shape))
    text = _program(f'  %e = "ttir.exp"(%a0) : ({_t(shape)}) -> {_t(shape)}\n'
                    f'  %r = "ttir.{op}"(%e) <{{dim_arg = [{dim} : i32], keep_dim = true}}> : ({_t(shape)}) -> '
                    f'{_t(out)}\n', [shape], out)
    expected = reduce(np.exp(x), axis=dim, keepdims=True)
    assert np.allclose(_run(text, [x]), expected, rtol=2e-2, atol=2e-2)


def test_softmax_along_a_padded_dim_ignores_its_padding():
    shape = (330, 500)
    x, = _inputs(shape)
    text = _program(f'  %r = "ttir.softmax"(%a0) <{{dimension = 1 : si32}}> : ({_t(shape)}) -> {_t(shape)}\n',
                    [shape], shape)
    e = np.exp(x - x.max(1, keepdims=True))
    assert np.allclose(_run(text, [x]), e / e.sum(1, keepdims=True), atol=2e-3)


def test_a_matmul_contracting_a_padded_dim_ignores_its_padding():
    # K = 600 is padded to 832 columns where exp computes A (13 cores of columns), read back to whole tiles for the
    # matmul; M = 700 and N = 500 are padded on the output's grid
    m, k, n = 700, 600, 500
    a, b = _inputs((m, k), (k, n))
    text = _program(f'  %e = "ttir.exp"(%a0) : ({_t((m, k))}) -> {_t((m, k))}\n'
                    f'  %r = "ttir.matmul"(%e, %a1) : ({_t((m, k))}, {_t((k, n))}) -> {_t((m, n))}\n',
                    [(m, k), (k, n)], (m, n))
    expected = np.exp(a).astype(np.float64) @ b
    got = _run(text, [a, b])
    assert np.corrcoef(got.ravel(), expected.ravel())[0, 1] > 0.999


@pytest.mark.parametrize("arch", [BH, "mock-system-desc-arch=wormhole_b0"])
def test_elementwise_ops_on_padded_tensors(arch):
    shape = (3, 130, 300)  # collapsed rows 3 x 160 padded at the end of the batch
    x, y = _inputs(shape, shape)
    text = _program(f'  %s = "ttir.add"(%a0, %a1) : ({_t(shape)}, {_t(shape)}) -> {_t(shape)}\n'
                    f'  %r = "ttir.neg"(%s) : ({_t(shape)}) -> {_t(shape)}\n', [shape, shape], shape)
    assert np.allclose(_run(text, [x, y], arch), -(x + y), atol=1e-2)


def test_a_program_not_padded_for_its_grid_feeds_one_that_is():
    # a batched matmul computes on a grid of its own (its output in whole tiles only); the exp reading it pads its
    # 600 columns to 832 for Blackhole's 13 columns of cores
    a, b = _inputs((2, 64, 64), (2, 64, 600))
    text = _program('  %m = "ttir.matmul"(%a0, %a1) : (tensor<2x64x64xf32>, tensor<2x64x600xf32>) -> '
                    'tensor<2x64x600xf32>\n'
                    '  %r = "ttir.exp"(%m) : (tensor<2x64x600xf32>) -> tensor<2x64x600xf32>\n',
                    [(2, 64, 64), (2, 64, 600)], (2, 64, 600))
    expected = np.exp(np.matmul(a.astype(np.float64), b) / 8) ** 8
    got = _run(text, [a, b])
    assert np.corrcoef(np.log(got).ravel(), np.log(expected).ravel())[0, 1] > 0.999


@pytest.mark.parametrize("op, source, result, reference", [
    # a permute kept at its rank, its tiles moved into a padded 2-d tensor (6 x 2 row tiles padded to 20)
    ('"ttir.permute"(%a0) <{permutation = array<i64: 1, 0, 2, 3>}>', (3, 2, 64, 600), (2, 3, 64, 600),
     lambda x: x.transpose(1, 0, 2, 3)),
    # a slice of a padded tensor into another padded one
    ('"ttir.slice_static"(%a0) <{begins = [0 : i32, 0 : i32], ends = [650 : i32, 600 : i32], '
     'step = [1 : i32, 1 : i32]}>', (700, 600), (650, 600), lambda x: x[:650]),
])
def test_data_movement_into_a_padded_tensor(op, source, result, reference):
    x, = _inputs(source)
    text = _program(f'  %p = {op} : ({_t(source)}) -> {_t(result)}\n'
                    f'  %r = "ttir.exp"(%p) : ({_t(result)}) -> {_t(result)}\n', [source], result)
    assert np.allclose(_run(text, [x]), np.exp(reference(x)), rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("options", ["default-input-memspace=dram", "default-output-memspace=dram"])
def test_dram_tensors_padded_at_the_end_of_their_tile_rows(options):
    # N = 600 is padded to 768 columns on Wormhole's 8 columns of cores: B's DRAM pages (input) or the output's
    # (result) hold 24 tiles a row, the host's 19 and zeros
    m, k, n = 12, 600, 600
    a, b = _inputs((m, k), (k, n))
    text = _program(f'  %r = "ttir.matmul"(%a0, %a1) : ({_t((m, k))}, {_t((k, n))}) -> {_t((m, n))}\n',
                    [(m, k), (k, n)], (m, n))
    got = _run(text, [a, b], f"mock-system-desc-arch=wormhole_b0 {options}")
    assert np.corrcoef(got.ravel(), (a.astype(np.float64) @ b).ravel())[0, 1] > 0.9999
