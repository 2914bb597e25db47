"""Upstream's staged D2M path end to end on the simulated grid: `--d2m-fe-pipeline`, `--d2m-be-pipeline`,
`--d2m-to-ttkernel-pipeline` and `--d2m-to-ttmetal-pipeline`, the host data written row-major and tilized,
computed and untilized on the device by the kernels those stages make, then read back; checked against torch."""

import pytest
import torch

from ttmlir.asm import parse_text, print_module
from ttmlir.dialects import make_context
from ttmlir.passes import make_pass
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

STAGES = ("ttcore-register-device", "d2m-fe-pipeline", "d2m-be-pipeline", "d2m-to-ttkernel-pipeline",
          "d2m-to-ttmetal-pipeline")


def staged(text: str, frontend: str = ""):
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    for stage in STAGES:
        make_pass(stage, frontend if stage == "d2m-fe-pipeline" else "").apply(ctx, module)
    return module


def program(body: str, shape: tuple[int, ...], dtype: str, arity: int) -> str:
    t = f"tensor<{'x'.join(map(str, shape))}x{dtype}>"
    args = ", ".join(f"%a{i}: {t}" for i in range(arity))
    return f"func.func @f({args}) -> {t} {{\n{body.replace('T', t)}}}\n"


def test_an_add_runs_through_the_staged_path_exactly():
    text = program('  %0 = "ttir.add"(%a0, %a1) : (T, T) -> T\n  return %0 : T\n', (64, 128), "f32", 2)
    g = torch.Generator().manual_seed(0)
    a, b = torch.randn(64, 128, generator=g), torch.randn(64, 128, generator=g)
    module = staged(text)
    assert "ttmetal.enqueue_write_buffer" in print_module(module)  # the host data goes in as it is (row-major)
    (out,), _ = run_program(translate(module), [a, b])
    assert torch.equal(out, a + b)


def test_tilize_and_untilize_blocks_of_several_tile_rows_and_columns():
    """On one core a 64x96 tensor is one block of 2x3 tiles: tilized and untilized row of tiles by row."""
    text = program('  %0 = "ttir.neg"(%a0) : (T) -> T\n  return %0 : T\n', (64, 96), "f32", 1)
    module = staged(text, "override-device-shape=1,1")
    kernels = print_module(module)
    assert '"experimental::tilize_block"' in kernels and '"experimental::pack_untilize_block"' in kernels
    x = torch.randn(64, 96, generator=torch.Generator().manual_seed(1))
    (out,), _ = run_program(translate(module), [x])
    assert torch.equal(out, -x)


def test_a_fused_chain_runs_in_the_eighth_kernel_in_program_order_of_its_tiles():
    """Three tilizes (x is read by two ops) take kernels 0-5; the fused chain's compute kernel is the eighth, as
    upstream numbers it."""
    body = ('  %0 = "ttir.neg"(%a0) : (T) -> T\n  %1 = "ttir.exp"(%0) : (T) -> T\n'
            '  %2 = "ttir.exp"(%a0) : (T) -> T\n  %3 = "ttir.div"(%2, %1) : (T, T) -> T\n'
            '  %4 = "ttir.pow"(%3, %a1) : (T, T) -> T\n  return %4 : T\n')
    module = staged(program(body, (128, 128), "bf16", 2), "enable-elementwise-fusion=true")
    text = print_module(module)
    fused = text[text.index("func.func private @compute_kernel7()"):]
    fused = fused[:fused.index("\n  }\n")]
    for call in ("negative_tile", "exp_tile", "div_binary_tile", "power_binary_tile"):
        assert f'"{call}"' in fused
    g = torch.Generator().manual_seed(2)
    x, y = ((torch.rand(128, 128, generator=g) * 0.5).bfloat16().float() for _ in range(2))
    (out,), _ = run_program(translate(module), [x, y])
    expected = (torch.exp(x) / torch.exp(-x)) ** y
    assert torch.allclose(out, expected, rtol=2e-2, atol=2e-2)


def test_host_data_in_dram_is_read_row_by_row():
    """Row-major interleaved DRAM pages are rows of the shard: the data movement reads whole rows."""
    text = program('  %0 = "ttir.neg"(%a0) : (T) -> T\n  return %0 : T\n', (32, 64), "f32", 1)
    x = torch.randn(32, 64, generator=torch.Generator().manual_seed(3))
    (out,), _ = run_program(translate(staged(text, "override-device-shape=1,1 default-input-memspace=dram")), [x])
    assert torch.equal(out, -x)


def test_a_mean_over_dram_data_reads_its_scaler_tile_once_per_block():
    """The reduction's scaler is a tile the device fills; the compute thread waits for and pops it around its
    use, so the program finishes with the mean (upstream's reduction_scaler_cb_sync program)."""
    t_in, t_out = "tensor<2x128x160xf32>", "tensor<2x128x1xf32>"
    text = (f"func.func @main(%a: {t_in}) -> {t_out} {{\n"
            f'  %0 = "ttir.mean"(%a) <{{dim_arg = [2 : i32], keep_dim = true}}> : ({t_in}) -> {t_out}\n'
            f"  return %0 : {t_out}\n}}\n")
    module = staged(text, "default-input-memspace=dram default-output-memspace=dram")
    assert '"fill_tile"' in print_module(module)
    x = torch.randn(2, 128, 160, generator=torch.Generator().manual_seed(4))
    (out,), _ = run_program(translate(module), [x])
    assert torch.allclose(out, x.mean(2, keepdim=True), rtol=1e-5, atol=1e-6)



@pytest.mark.parametrize("op, shapes, golden", [
    ('"ttir.matmul"(%a0, %a1) : (tensor<64x128xf32>, tensor<128x96xf32>) -> tensor<64x96xf32>',
     [(64, 128), (128, 96)], lambda a, b: a @ b),
    ('"ttir.add"(%a0, %a1) : (tensor<64x96xf32>, tensor<1x96xf32>) -> tensor<64x96xf32>',
     [(64, 96), (1, 96)], lambda a, b: a + b),
    ('"ttir.sum"(%a0) <{dim_arg = [0 : i32], keep_dim = true}> : (tensor<64x96xf32>) -> tensor<1x96xf32>',
     [(64, 96)], lambda a: a.sum(0, keepdim=True)),
    ('"ttir.max"(%a0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<64x96xf32>) -> tensor<64x1xf32>',
     [(64, 96)], lambda a: a.amax(1, keepdim=True)),
    ('"ttir.transpose"(%a0) <{dim0 = 0 : si32, dim1 = 1 : si32}> : (tensor<64x96xf32>) -> tensor<96x64xf32>',
     [(64, 96)], lambda a: a.T),
    # rows not a tile multiple: the padding masked with a row mask tile the compute kernel writes
    ('"ttir.max"(%a0) <{dim_arg = [0 : i32], keep_dim = true}> : (tensor<40x96xf32>) -> tensor<1x96xf32>',
     [(40, 96)], lambda a: a.amax(0, keepdim=True)),
    # -max(-x): the reduction reads the negation through a view of its buffer
    ('"ttir.min"(%a0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<40x96xf32>) -> tensor<40x1xf32>',
     [(40, 96)], lambda a: a.amin(1, keepdim=True))])
def test_a_matmul_a_broadcast_and_reductions_run_through_the_staged_path(op, shapes, golden):
    """A block matmul (experimental::matmul_block over the streamed A and B blocks), an implicit row broadcast, a
    column sum and max, a row max and min and a transpose (its input streamed: each core's block is another core's shard), each
    against torch."""
    result = op.rsplit("-> ", 1)[1]
    args = ", ".join(f"%a{i}: tensor<{'x'.join(map(str, s))}xf32>" for i, s in enumerate(shapes))
    text = f"func.func @f({args}) -> {result} {{\n  %0 = {op}\n  return %0 : {result}\n}}\n"
    g = torch.Generator().manual_seed(5)
    xs = [torch.randn(s, generator=g) for s in shapes]
    (out,), _ = run_program(translate(staged(text)), xs)
    # the grid's matmul rounds its inputs as HiFi4 does
    assert torch.allclose(out, golden(*xs), rtol=1e-2, atol=5e-2 if "matmul" in op else 1e-4)


@pytest.mark.parametrize("op, source, result, golden", [
    ('"ttir.slice_static"(%e) <{begins = [0 : i32, 0 : i32, 32 : i32], ends = [2 : i32, 64 : i32, 96 : i32], '
     'step = [1 : i32, 1 : i32, 1 : i32]}>', (2, 64, 96), (2, 64, 64), lambda x: x[:, :, 32:]),
    ('"ttir.broadcast"(%e) <{broadcast_dimensions = array<i64: 3, 1, 1>}>', (1, 64, 96), (3, 64, 96),
     lambda x: x.expand(3, 64, 96)),
    ('"ttir.permute"(%e) <{permutation = array<i64: 0, 2, 1>}>', (2, 64, 96), (2, 96, 64), lambda x: x.transpose(1, 2))])
def test_copies_of_whole_tiles_read_each_tile_where_the_view_names_it(op, source, result, golden):
    # a view of tiles made on the unit grid and placed on several cores names, for each core's shard, the tiles of
    # the source that shard holds (each core used to read the tiles at its own grid coordinates)
    s, r = (f"tensor<{'x'.join(map(str, t))}xf32>" for t in (source, result))
    text = (f"func.func @f(%a: {s}) -> {r} {{\n  %e = \"ttir.neg\"(%a) : ({s}) -> {s}\n  %0 = {op} : ({s}) -> {r}\n"
            f"  return %0 : {r}\n}}\n")
    x = torch.randn(source, generator=torch.Generator().manual_seed(3))
    (out,), _ = run_program(translate(staged(text)), [x])
    assert torch.equal(out, golden(-x))
