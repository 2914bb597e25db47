"""Slices and permutes above two dims that keep each matrix whole, through `--ttir-to-ttmetal-pipeline`: kept at
their rank in tiles on virtual grids of their rank (upstream's grid choice), host data written row-major into
shards on those cores and tilized there, each output tile read by a data-movement kernel from the core holding its
source tile, the result untilized there and read back; run from the `.ttm` on the simulated grid, exact against
numpy's slicing and transposes."""

import numpy as np
import pytest
import torch

from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

from test_ttmetal_row_major import compile_module, host_input, slice_text

L1 = "#ttcore.memory_space<l1>"


def permute_text(shape, order, dtype: str, around: str | None = None) -> str:
    """A function permuting its argument (with `around`, an elementwise op before and after the permute)."""
    out = [shape[d] for d in order]
    t_in, t_out = (f"tensor<{'x'.join(map(str, s))}x{dtype}>" for s in (shape, out))
    source, body = "%arg0", ""
    if around:
        body += f'  %a = "ttir.{around}"(%arg0) : ({t_in}) -> {t_in}\n'
        source = "%a"
    body += (f'  %p = "ttir.permute"({source}) <{{permutation = array<i64: {", ".join(map(str, order))}>}}> : '
             f'({t_in}) -> {t_out}\n')
    result = "%p"
    if around:
        body += f'  %b = "ttir.{around}"(%p) : ({t_out}) -> {t_out}\n'
        result = "%b"
    return f"func.func @f(%arg0: {t_in}) -> {t_out} {{\n{body}  return {result} : {t_out}\n}}\n"


def sliced(x: torch.Tensor, begins, ends, steps) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(x.numpy()[tuple(map(slice, begins, ends, steps))]))


def permuted(x: torch.Tensor, order) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(np.transpose(x.numpy(), order)))


def buffers(module) -> list:
    return [op for op in module.walk() if op.name == "ttmetal.create_buffer"]


def moved(module, name: str) -> list[str]:
    """The types of the buffers the host writes (`enqueue_write_buffer`) or reads (`enqueue_read_buffer`)."""
    return [str(op.operands[1 if name == "write" else 0].type) for op in module.walk()
            if op.name == f"ttmetal.enqueue_{name}_buffer"]


def test_a_slice_of_whole_matrices_copies_tiles_between_virtual_grids():
    """Upstream's noc-aligned slice: 8x6x64x32 bf16 tiled at its rank on an 8x6x2x1 grid, its 4x4x64x32 slice on a
    4x4x2x1 grid of one tile per shard (both virtual, laid onto blackhole's cores), the result untilized on the
    device and read back row-major."""
    shape, begins, ends, steps = (8, 6, 64, 32), (2, 1, 0, 0), (6, 5, 64, 32), (1, 1, 1, 1)
    module = compile_module(slice_text(shape, begins, ends, steps, "bf16"), "blackhole")
    types = [str(op.results[0].type) for op in buffers(module)]
    assert f"memref<4x4x2x1x1x1x1x1x!ttcore.tile<32x32, bf16>, #ttcore.shard<2048x2048x2048x2048, 1>, {L1}>" in types
    assert all("virtualGridForwardMapping" in op.properties for op in buffers(module))
    assert moved(module, "write") == [f"memref<8x6x2x1x1x1x32x32xbf16, #ttcore.shard<2048x2048x64x2, 1>, {L1}>"]
    assert moved(module, "read") == [f"memref<4x4x2x1x1x1x32x32xbf16, #ttcore.shard<2048x2048x64x2, 1>, {L1}>"]
    x = host_input(shape, "bf16")
    (y,), stats = run_program(translate(module), [x])
    assert torch.equal(y, sliced(x, begins, ends, steps))
    assert [s.cores for s in stats] == [96, 32, 32]  # tilize, the tile copy, untilize


def test_a_permute_of_outer_dims_copies_tiles_between_virtual_grids():
    """Upstream's permute readback: 1x18x8x128 f32 (each 8-row matrix padded to a tile row) written row-major onto
    a 1x18x1x4 grid, tilized, copied into the 18x1x1x4 grid of the result, untilized and read back."""
    shape, order = (1, 18, 8, 128), (1, 0, 2, 3)
    module = compile_module(permute_text(shape, order, "f32"), "blackhole")
    assert moved(module, "write") == [f"memref<1x18x1x4x1x1x32x32xf32, #ttcore.shard<4096x4096x128x4, 1>, {L1}>"]
    assert moved(module, "read") == [f"memref<18x1x1x4x1x1x32x32xf32, #ttcore.shard<4096x4096x128x4, 1>, {L1}>"]
    assert all("virtualGridForwardMapping" in op.properties for op in buffers(module))
    x = host_input(shape, "f32")
    (y,), _ = run_program(translate(module), [x])
    assert torch.equal(y, permuted(x, order))


@pytest.mark.parametrize("shape, order, dtype", [
    ((2, 3, 40, 64), (1, 0, 2, 3), "bf16"),
    ((3, 5, 70, 20), (1, 0, 2, 3), "si32"),
    ((4, 2, 3, 64, 32), (2, 1, 0, 3, 4), "bf16"),
    # 96 matrices over wormhole's 64 cores: shards of several matrices
    ((2, 3, 4, 33, 40), (2, 0, 1, 3, 4), "f32"),
])
def test_permutes_of_outer_dims_are_exact(shape, order, dtype):
    module = compile_module(permute_text(shape, order, dtype), "wormhole_b0")
    assert any("!ttcore.tile" in str(op.results[0].type) and len(op.results[0].type.get_shape()) == 2 * len(shape)
               for op in buffers(module))  # tiles kept at their rank
    x = host_input(shape, dtype)
    (y,), stats = run_program(translate(module), [x])
    assert torch.equal(y, permuted(x, order))
    assert len(stats) == 3


@pytest.mark.parametrize("shape, begins, ends, steps, dtype", [
    ((6, 8, 40, 64), (1, 0, 0, 0), (6, 8, 40, 64), (2, 3, 1, 1), "f32"),  # steps over both outer dims
    ((5, 4, 3, 33, 70), (1, 1, 0, 0, 0), (5, 4, 3, 33, 70), (2, 2, 1, 1, 1), "bf16"),
    ((3, 7, 32, 96), (2, 1, 0, 0), (3, 6, 32, 96), (1, 2, 1, 1), "si32"),
    ((7, 50, 64), (1, 0, 0), (7, 50, 64), (3, 1, 1), "bf16"),  # three dims
])
def test_slices_stepping_over_outer_dims_are_exact(shape, begins, ends, steps, dtype):
    module = compile_module(slice_text(shape, begins, ends, steps, dtype), "wormhole_b0")
    x = host_input(shape, dtype)
    (y,), stats = run_program(translate(module), [x])
    assert torch.equal(y, sliced(x, begins, ends, steps))
    assert len(stats) == 3  # tilize, the tile copy, untilize


@pytest.mark.parametrize("shape, dtype, op", [
    # matrices of 40 rows: the collapsed tiles and those kept at their rank differ, moved through row-major shards
    ((2, 3, 40, 64), "f32", ("permute", (1, 0, 2, 3))),
    # matrices of whole tiles, one per shard: the producer's tiles copied onto the permute's grid tile by tile
    ((2, 3, 64, 64), "bf16", ("permute", (1, 0, 2, 3))),
    # whole tiles, several matrices per shard on wormhole: through row-major shards too
    ((6, 8, 64, 64), "f32", ("slice", (1, 2, 0, 0), (5, 8, 64, 64), (1, 1, 1, 1))),
])
def test_between_collapsed_tiled_programs(shape, dtype, op):
    """An abs before and after: the collapsed 2-d tiles of the elementwise programs and the tiles kept at their rank
    moved into each other on the device (the host writes the input and reads the result alone)."""
    if op[0] == "permute":
        text, expected = permute_text(shape, op[1], dtype, "abs"), lambda x: permuted(x, op[1])
    else:
        text, expected = slice_text(shape, *op[1:], dtype, "abs"), lambda x: sliced(x, *op[1:])
    module = compile_module(text, "wormhole_b0")
    assert [len(moved(module, kind)) for kind in ("write", "read")] == [1, 1]
    x = host_input(shape, dtype)
    (y,), _ = run_program(translate(module), [x])
    assert torch.equal(y, expected(x.abs()).abs())


def test_tiles_kept_at_their_rank_around_a_slice_with_collapse_tensors_2d_false():
    """collapse-tensors-2d=false: the producer's and consumer's tiles at their rank on their own grids, the slice's
    on virtual grids (shards of one matrix each: moved between them tile by tile)."""
    shape, begins, ends, steps = (2, 3, 64, 64), (1, 0, 0, 0), (2, 3, 64, 64), (1, 2, 1, 1)
    module = compile_module(slice_text(shape, begins, ends, steps, "f32", around="abs"), "wormhole_b0",
                            "collapse-tensors-2d=false")
    x = host_input(shape, "f32")
    (y,), _ = run_program(translate(module), [x])
    assert torch.equal(y, sliced(x.abs(), begins, ends, steps).abs())
