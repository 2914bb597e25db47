"""Slices above two dims that cut a matrix's last two dims, through `--ttir-to-ttmetal-pipeline`: kept at their rank
in row-major elements on virtual grids of their rank (upstream's grid choice), host data written straight into the
input's shards and the result read straight from the output's, each output row read by a data-movement kernel from
the core holding its source row, tiled producers and consumers untilized and tilized on the device; run from the
`.ttm` on the simulated grid against torch's slicing."""

import numpy as np
import pytest
import torch

from ttmlir.asm import parse_text
from ttmlir.dialects import make_context
from ttmlir.passes import make_pass
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

TYPES = {"f32": torch.float32, "bf16": torch.bfloat16, "si32": torch.int32}


def slice_text(shape, begins, ends, steps, dtype, around: str | None = None) -> str:
    """A function slicing its argument (with `around`, an elementwise op before and after the slice)."""
    out = [len(range(b, e, s)) for b, e, s in zip(begins, ends, steps)]
    t_in, t_out = (f"tensor<{'x'.join(map(str, s))}x{dtype}>" for s in (shape, out))
    ints = lambda values: "[" + ", ".join(f"{v} : i32" for v in values) + "]"  # noqa: E731
    source, body = "%arg0", ""
    if around:
        body += f'  %a = "ttir.{around}"(%arg0) : ({t_in}) -> {t_in}\n'
        source = "%a"
    body += (f'  %s = "ttir.slice_static"({source}) <{{begins = {ints(begins)}, ends = {ints(ends)}, '
             f'step = {ints(steps)}}}> : ({t_in}) -> {t_out}\n')
    result = "%s"
    if around:
        body += f'  %b = "ttir.{around}"(%s) : ({t_out}) -> {t_out}\n'
        result = "%b"
    return f"func.func @f(%arg0: {t_in}) -> {t_out} {{\n{body}  return {result} : {t_out}\n}}\n"


def compile_module(text: str, arch: str, options: str = ""):
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    make_pass("ttcore-register-device", f"mock-system-desc-arch={arch}").apply(ctx, module)
    make_pass("ttir-to-ttmetal-pipeline", options).apply(ctx, module)
    return module


def host_input(shape, dtype: str) -> torch.Tensor:
    generator = torch.Generator().manual_seed(7)
    if dtype == "si32":
        return torch.randint(-1000, 1000, shape, generator=generator).float()
    return torch.randn(shape, generator=generator).to(TYPES[dtype]).float()


def expected_slice(x: torch.Tensor, begins, ends, steps) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(x.numpy()[tuple(slice(b, e, s)
                                                                 for b, e, s in zip(begins, ends, steps))]))


def test_a_slice_cutting_the_last_two_dims_reads_rows_between_virtual_grids():
    """The slice of upstream's virtual-grid test: a 6x64x64x4 f32 input on a 3x16x2x1 grid of 2x4x32x32 shards (its
    last dim padded to 32), the 3x32x32x2 result on a 3x32x1x1 grid, both laid onto 8x12 of blackhole's cores."""
    shape, begins, ends, steps = (6, 64, 64, 4), (1, 15, 16, 2), (6, 47, 48, 4), (2, 1, 1, 1)
    module = compile_module(slice_text(shape, begins, ends, steps, "f32"), "blackhole")
    buffers = [op for op in module.walk() if op.name == "ttmetal.create_buffer"]
    types = [str(op.results[0].type) for op in buffers]
    assert types == ["memref<3x16x2x1x2x4x32x32xf32, #ttcore.shard<16384x4096x128x4, 1>, #ttcore.memory_space<l1>>",
                     "memref<3x32x1x1x1x1x32x32xf32, #ttcore.shard<4096x4096x128x4, 1>, #ttcore.memory_space<l1>>"]
    assert all("virtualGridForwardMapping" in op.properties for op in buffers)
    writes = [op for op in module.walk() if op.name == "ttmetal.enqueue_write_buffer"]
    reads = [op for op in module.walk() if op.name == "ttmetal.enqueue_read_buffer"]
    assert [w.operands[1] for w in writes] == [buffers[0].results[0]]  # no tilize: the host writes the shards
    assert [r.operands[0] for r in reads] == [buffers[1].results[0]]
    x = host_input(shape, "f32")
    (y,), stats = run_program(translate(module), [x])
    assert torch.equal(y, expected_slice(x, begins, ends, steps))
    assert len(stats) == 1 and stats[0].cores == 96


@pytest.mark.parametrize("shape, begins, ends, steps, dtype", [
    ((2, 3, 40, 50), (0, 1, 3, 5), (2, 3, 40, 50), (1, 1, 2, 3), "bf16"),  # strided columns: element by element
    ((4, 8, 33, 70), (1, 2, 1, 7), (4, 7, 30, 61), (2, 2, 1, 1), "si32"),
    ((5, 2, 3, 64, 40), (1, 0, 1, 8, 3), (5, 2, 3, 60, 37), (3, 1, 1, 4, 1), "f32"),
    # rows split over 32 shards along the last dim (a 1x1x2x32 grid): each row's run read a source shard at a time
    ((2, 3, 40, 1000), (0, 0, 5, 5), (2, 3, 35, 995), (1, 1, 1, 1), "f32"),
])
def test_slices_of_any_steps_and_ranks_are_exact(shape, begins, ends, steps, dtype):
    module = compile_module(slice_text(shape, begins, ends, steps, dtype), "wormhole_b0")
    x = host_input(shape, dtype)
    (y,), _ = run_program(translate(module), [x])
    assert torch.equal(y, expected_slice(x, begins, ends, steps))


@pytest.mark.parametrize("shape, begins, ends, steps, dtype", [
    ((2, 4, 64, 96), (0, 1, 5, 9), (2, 4, 60, 90), (1, 1, 1, 1), "f32"),
    ((3, 5, 37, 50), (1, 0, 2, 3), (3, 5, 35, 47), (1, 2, 1, 1), "bf16"),  # tiles with padding rows and columns
])
def test_a_row_major_slice_between_tiled_programs_moves_its_tensors_on_the_device(shape, begins, ends, steps, dtype):
    """Its tiled producer's result is untilized into the row-major input by a program, its result tilized into its
    tiled consumer's input by another (face row by face row, the tiles' padding zero), the host data tilized by a
    first and the consumer's result untilized for the host by a last one: the host writes the input and reads the
    result alone."""
    module = compile_module(slice_text(shape, begins, ends, steps, dtype, around="abs"), "wormhole_b0")
    assert [op.name for op in module.walk() if op.name.startswith("ttmetal.enqueue_")] == [
        "ttmetal.enqueue_write_buffer", *["ttmetal.enqueue_program"] * 7, "ttmetal.enqueue_read_buffer"]
    x = host_input(shape, dtype)
    (y,), stats = run_program(translate(module), [x])
    assert torch.equal(y, expected_slice(x.abs(), begins, ends, steps))
    assert len(stats) == 7  # tilize, abs, untilize, the row copy, tilize, abs, the result's untilize


def test_tiles_kept_at_their_rank_move_to_and_from_row_major_shards_on_the_device():
    """collapse-tensors-2d=false: the producer's tiles on a grid of their rank are untilized into the slice's
    row-major input by a program, the slice's result tilized into the consumer's the same way."""
    shape, begins, ends, steps = (3, 5, 37, 50), (1, 0, 2, 3), (3, 5, 35, 47), (1, 2, 1, 1)
    module = compile_module(slice_text(shape, begins, ends, steps, "bf16", around="abs"), "wormhole_b0",
                            "collapse-tensors-2d=false")
    assert [op.name for op in module.walk() if op.name.startswith("ttmetal.enqueue_")] == [
        "ttmetal.enqueue_write_buffer", *["ttmetal.enqueue_program"] * 7, "ttmetal.enqueue_read_buffer"]
    x = host_input(shape, "bf16")
    (y,), _ = run_program(translate(module), [x])
    assert torch.equal(y, expected_slice(x.abs(), begins, ends, steps))


def test_a_row_major_slice_feeding_a_reduction_leaves_zeros_in_the_tiles_padding():
    """A sum along the sliced last dim reads the tilized slice's padding columns: they are zero."""
    shape, begins, ends, steps = (2, 3, 40, 50), (0, 1, 3, 5), (2, 3, 40, 43), (1, 1, 1, 1)
    out = [len(range(b, e, s)) for b, e, s in zip(begins, ends, steps)]
    t_in, t_out = (f"tensor<{'x'.join(map(str, d))}xf32>" for d in (shape, out))
    t_sum = f"tensor<{'x'.join(map(str, out[:-1]))}x1xf32>"
    ints = lambda values: "[" + ", ".join(f"{v} : i32" for v in values) + "]"  # noqa: E731
    text = (f"func.func @f(%arg0: {t_in}) -> {t_sum} {{\n"
            f'  %s = "ttir.slice_static"(%arg0) <{{begins = {ints(begins)}, ends = {ints(ends)}, '
            f'step = {ints(steps)}}}> : ({t_in}) -> {t_out}\n'
            f'  %r = "ttir.sum"(%s) <{{dim_arg = [3 : i32], keep_dim = true}}> : ({t_out}) -> {t_sum}\n'
            f"  return %r : {t_sum}\n}}\n")
    module = compile_module(text, "wormhole_b0")
    x = host_input(shape, "f32")
    (y,), _ = run_program(translate(module), [x], exact=True)
    expected = expected_slice(x, begins, ends, steps).sum(-1, keepdim=True)
    assert torch.allclose(y, expected, rtol=1e-5, atol=1e-4)


def test_a_slice_too_large_for_l1_keeps_the_tiled_path_through_dram():
    """Row-major shards of 16x128x512x128 f32 would take 8 MiB per core: the slice reads the input's tiles from
    DRAM instead, as slices that cut tiles did before."""
    shape, begins, ends, steps = (16, 128, 512, 100), (0, 0, 3, 5), (16, 128, 503, 55), (1, 1, 1, 1)
    module = compile_module(slice_text(shape, begins, ends, steps, "f32"), "wormhole_b0")
    buffers = [op.results[0].type for op in module.walk() if op.name == "ttmetal.create_buffer"]
    assert all(str(t.element_type) == "!ttcore.tile<32x32, f32>" for t in buffers)
    assert any("dram" in str(t.memory_space) for t in buffers)
