"""D2M programs (unified-thread generics, spatial regions on core ranges) compile through
--ttir-to-ttmetal-pipeline, run from their .ttm on the simulated grid, and give the right answer."""

import subprocess
import sys
from pathlib import Path

import pytest
import torch

from ttmlir.errors import PassFailure
from ttmlir.runtime.metal.program import run_program
from ttmlir.target import flatbuffer as fbu
from ttmlir.target import metal_generated as fbm
from ttmlir.target.flatbuffer import load_bytes

from test_ttmetal_pipeline import compile_ttir

LAYOUT = ("#ttcore.metal_layout<logical_shape = {r}x{c}, dim_alignments = 32x32, collapsed_intervals = "
          "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>")


def device(rows: int, cols: int, dtype: str = "f32") -> str:
    return f"tensor<1x1x{rows // 32}x{cols // 32}x!ttcore.tile<32x32, {dtype}>, {LAYOUT.format(r=rows, c=cols)}>"


def local(rows: int, cols: int, dtype: str = "f32") -> str:
    return f"tensor<{rows // 32}x{cols // 32}x!ttcore.tile<32x32, {dtype}>>"


def on_device(name: str, host: str, rows: int, cols: int, origin: tuple[int, int]) -> str:
    """Host tensor %<host> moved onto the device (core `origin`) as %<name>."""
    t = device(rows, cols)
    attrs = ""
    if origin != (0, 0):
        attrs = (f" {{virtualGridForwardMapping = affine_map<(d0, d1, d2, d3) -> (d0 + {origin[0]}, d1 + "
                 f"{origin[1]}, d2, d3)>}}")
    text = f"    %{name}_e = d2m.empty(){attrs} : {t}\n"
    if host:
        text += f"    %{name} = d2m.to_layout %{host}, %{name}_e : tensor<{rows}x{cols}xf32> into {t} -> {t}\n"
    else:
        text += (f"    %{name} = d2m.view_layout %{name}_e remapping = affine_map<(d0, d1, d2, d3) -> "
                 f"(d0, d1, d2, d3)> : {t} -> {t}\n")
    return text


def eltwise_generic(tile_op: str, x: str, out: str, rows: int, cols: int) -> str:
    t, l = device(rows, cols), local(rows, cols)
    return f"""      %g0 = d2m.generic {{block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#id, #id], iterator_types = [#parallel, #parallel], threads = [#d2m.thread<unified>]}}
          ins(%{x} : {t}) outs(%{out} : {t}) {{
        %i = d2m.block_index(0) : index
        %j = d2m.block_index(1) : index
        %t0 = tensor.empty() : {l}
        %ld = d2m.remote_load %t0 %{x}[%i, %j] : {l}, {t} -> {l}
        %t1 = tensor.empty() : {l}
        %ev = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}} ins(%ld : {l}) outs(%t1 : {l}) {{
        ^bb0(%in: !ttcore.tile<32x32, f32>, %o: !ttcore.tile<32x32, f32>):
          %r = "d2m.{tile_op}"(%in) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
          linalg.yield %r : !ttcore.tile<32x32, f32>
        }} -> {l}
        %st = d2m.remote_store %{out}[%i, %j] %ev : {t}, {l} -> {t}
        d2m.yield %st : ({t})
      }} : {t}
"""


def matmul_generic(a: str, b: str, out: str, m: int, k: int, n: int) -> str:
    ta, tb, tc = device(m, k), device(k, n), device(m, n)
    la, lb, lc = local(m, k), local(k, n), local(m, n)
    return f"""      %g1 = d2m.generic {{block_factors = [1, 1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#lhs, #rhs, #res], iterator_types = [#parallel, #parallel, #reduction], threads = [#d2m.thread<unified>]}}
          ins(%{a}, %{b} : {ta}, {tb}) outs(%{out} : {tc}) {{
        %i = d2m.block_index(0) : index
        %j = d2m.block_index(1) : index
        %k = d2m.block_index(2) : index
        %t0 = tensor.empty() : {la}
        %la = d2m.remote_load %t0 %{a}[%i, %k] : {la}, {ta} -> {la}
        %t1 = tensor.empty() : {lb}
        %lb = d2m.remote_load %t1 %{b}[%k, %j] : {lb}, {tb} -> {lb}
        %t2 = tensor.empty() : {lc}
        "d2m.tile_matmul_block"(%la, %lb, %t2) : ({la}, {lb}, {lc}) -> ()
        %st = d2m.remote_store %{out}[%i, %j] %t2 : {tc}, {lc} -> {tc}
        d2m.yield %st : ({tc})
      }} : {tc}
"""


def spatial_program(origin: tuple[int, int]) -> str:
    """exp(x) on core (0, 0) beside a @ b on the core at `origin`, in one d2m.spatial."""
    tx, ta, tc = device(64, 64), device(64, 96), device(64, 32)
    oy, ox = origin
    return f"""#id = affine_map<(d0, d1) -> (d0, d1)>
#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#res = affine_map<(d0, d1, d2) -> (d0, d1)>
#parallel = #ttcore.iterator_type<parallel>
#reduction = #ttcore.iterator_type<reduction>
module {{
  func.func @spatial(%x: tensor<64x64xf32>, %a: tensor<64x96xf32>, %b: tensor<96x32xf32>) -> (tensor<64x64xf32>, tensor<64x32xf32>) {{
{on_device("dx", "x", 64, 64, (0, 0))}{on_device("da", "a", 64, 96, origin)}{on_device("db", "b", 96, 32, origin)}{on_device("ox", "", 64, 64, (0, 0))}{on_device("oc", "", 64, 32, origin)}    %r:2 = d2m.spatial {{grid_ranges = [#ttcore.core_range<(0, 0), (0, 0)>, #ttcore.core_range<({oy}, {ox}), ({oy}, {ox})>]}}
        ins(%dx, %da, %db : {tx}, {ta}, {device(96, 32)}) outs(%ox, %oc : {tx}, {tc}) {{
{eltwise_generic("tile_exp", "dx", "ox", 64, 64)}      d2m.spatial_yield %g0 : ({tx})
    }}, {{
{matmul_generic("da", "db", "oc", 64, 96, 32)}      d2m.spatial_yield %g1 : ({tc})
    }} : {tx}, {tc}
    %h0 = d2m.empty() : tensor<64x64xf32>
    %y = d2m.to_layout %r#0, %h0 : {tx} into tensor<64x64xf32> -> tensor<64x64xf32>
    %h1 = d2m.empty() : tensor<64x32xf32>
    %z = d2m.to_layout %r#1, %h1 : {tc} into tensor<64x32xf32> -> tensor<64x32xf32>
    return %y, %z : tensor<64x64xf32>, tensor<64x32xf32>
  }}
}}
"""


@pytest.mark.parametrize("origin", [(0, 1), (1, 2), (6, 7)])
def test_a_spatial_program_runs_each_region_on_its_cores(origin):
    generator = torch.Generator().manual_seed(5)
    x, a, b = (torch.randn(*s, generator=generator) for s in ((64, 64), (64, 96), (96, 32)))
    binary = compile_ttir(spatial_program(origin))
    (y, z), stats = run_program(binary, [x, a, b], exact=True)  # f32 products (the FPU's are test_numerics')
    assert torch.allclose(y, torch.exp(x), rtol=1e-3, atol=1e-3)
    assert torch.allclose(z, a @ b, rtol=1e-4, atol=1e-4)
    # one program: the regions run together (after the three inputs' tilizes, each on its one core); then each
    # result is untilized for the host on its region's core
    assert [s.cores for s in stats] == [1, 1, 1, 2, 1, 1]
    _, root = load_bytes(binary, "spatial.ttm")
    launch = [c for c in fbu.ttm_commands(fbu.as_list(root.programs)[0])
              if isinstance(c.type, fbm.EnqueueProgramCommandT)][3]  # the spatial program, between the host data's
    # tilizes and the results' untilizes
    offsets = [(k.coreOffset.y, k.coreOffset.x) for k in fbu.as_list(launch.type.kernels)]
    # each region's kernels on its own core: the exp's one data-movement kernel (its operands are its core's own
    # shards) and its compute kernel, the matmul's two operand movers and its compute kernel
    assert offsets == [(0, 0)] * 2 + [origin] * 3


def test_a_view_that_remaps_is_refused_naming_it():
    text = spatial_program((0, 0)).replace("%ox = d2m.view_layout %ox_e remapping = affine_map<(d0, d1, d2, d3) -> "
                                           "(d0, d1, d2, d3)>", "%ox = d2m.view_layout %ox_e remapping = "
                                           "affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>")
    with pytest.raises(PassFailure, match="only identity view_layouts are lowered to TTMetal yet"):
        compile_ttir(text)


def test_regions_on_overlapping_cores_are_refused(tmp_path):
    source = tmp_path / "overlap.mlir"
    source.write_text(spatial_program((0, 0)))
    opt = Path(sys.executable).parent / "ttmlir-opt"
    run = subprocess.run([str(opt), str(source)], capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stderr.startswith(f"{source}:19:12: error: 'd2m.spatial' op grid_ranges of regions 0 and 1 overlap")


def test_a_grid_placed_off_the_device_is_refused():
    with pytest.raises(PassFailure, match=r"does not fit the 8x8 worker grid"):
        compile_ttir(spatial_program((7, 8)))


D2M_STAGE = """func.func @f(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>, %c: tensor<128x96xbf16>, %d: tensor<64x128xbf16>) -> (tensor<64x128xf32>, tensor<64x96xbf16>, tensor<64x128xbf16>) {
  %0 = "ttir.add"(%a, %b) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %1 = "ttir.exp"(%0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  %2 = "ttir.matmul"(%d, %c) : (tensor<64x128xbf16>, tensor<128x96xbf16>) -> tensor<64x96xbf16>
  %3 = "ttir.full"() <{shape = array<i32: 64, 128>, fill_value = 2.5 : f32}> : () -> tensor<64x128xbf16>
  return %1, %2, %3 : tensor<64x128xf32>, tensor<64x96xbf16>, tensor<64x128xbf16>
}
"""


@pytest.mark.parametrize("memspace", ["l1", "dram"])
def test_ttir_through_the_d2m_stage_runs_with_the_right_answer(memspace):
    """--ttir-to-d2m writes each op as a D2M program on a 1x1 grid, --d2m-grid-selection spreads each over the
    largest grid its tiles allow; the Metal pipeline runs what they wrote."""
    from ttmlir.dialects import make_context
    from ttmlir.asm import parse_text
    from ttmlir.passes import make_pass
    from ttmlir.target.ttmetal import translate

    ctx = make_context()
    module, _ = parse_text(ctx, D2M_STAGE)
    make_pass("ttcore-register-device", "").apply(ctx, module)
    make_pass("ttir-to-d2m", f"default-input-memspace={memspace}").apply(ctx, module)
    make_pass("d2m-grid-selection", "").apply(ctx, module)
    grids = [g.attributes["grid"].data.shape for g in module.walk() if g.name == "d2m.generic"]
    assert grids == [(2, 4), (2, 4), (2, 3), (2, 4)]
    make_pass("ttir-to-ttmetal-pipeline", "").apply(ctx, module)
    generator = torch.Generator().manual_seed(8)
    a, b = torch.randn(64, 128, generator=generator), torch.randn(64, 128, generator=generator)
    c, d = (torch.randn(*s, generator=generator).to(torch.bfloat16).float() for s in ((128, 96), (64, 128)))
    (y, z, w), _ = run_program(translate(module), [a, b, c, d])
    assert torch.allclose(y, torch.exp(a + b), rtol=1e-3, atol=1e-3)
    assert torch.allclose(z, d @ c, rtol=2e-2, atol=0.5)
    assert torch.equal(w, torch.full((64, 128), 2.5))


def test_an_op_the_d2m_stage_does_not_convert_is_refused_naming_it():
    from ttmlir.dialects import make_context
    from ttmlir.asm import parse_text
    from ttmlir.passes import make_pass

    ctx = make_context()
    module, _ = parse_text(ctx, D2M_STAGE.replace('"ttir.exp"', '"ttir.cumsum"'))
    with pytest.raises(PassFailure, match="'ttir.cumsum' is not converted to D2M yet"):
        make_pass("ttir-to-d2m", "").apply(ctx, module)


REGRID = """#layout = #ttcore.metal_layout<logical_shape = 64x384, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
func.func @regrid(%arg0: tensor<64x384xf32>) -> tensor<64x384xf32> {
  %0 = ttir.empty() : tensor<1x1x2x12x!ttcore.tile<32x32, f32>, #layout>
  %1 = ttir.to_layout %arg0, %0 : tensor<64x384xf32> into tensor<1x1x2x12x!ttcore.tile<32x32, f32>, #layout> -> tensor<1x1x2x12x!ttcore.tile<32x32, f32>, #layout>
  %2 = ttir.empty() : tensor<1x12x2x1x!ttcore.tile<32x32, f32>, #layout>
  %3 = ttir.to_layout %1, %2 : tensor<1x1x2x12x!ttcore.tile<32x32, f32>, #layout> into tensor<1x12x2x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<1x12x2x1x!ttcore.tile<32x32, f32>, #layout>
  %4 = ttir.empty() : tensor<2x4x1x3x!ttcore.tile<32x32, f32>, #layout>
  %5 = ttir.to_layout %3, %4 : tensor<1x12x2x1x!ttcore.tile<32x32, f32>, #layout> into tensor<2x4x1x3x!ttcore.tile<32x32, f32>, #layout> -> tensor<2x4x1x3x!ttcore.tile<32x32, f32>, #layout>
  %6 = ttir.empty() : tensor<64x384xf32>
  %7 = ttir.to_layout %5, %6 : tensor<2x4x1x3x!ttcore.tile<32x32, f32>, #layout> into tensor<64x384xf32> -> tensor<64x384xf32>
  return %7 : tensor<64x384xf32>
}
"""


@pytest.mark.parametrize("arch, folded", [("wormhole_b0", True), ("blackhole", False)])
@pytest.mark.parametrize("accessor", [False, True])
def test_tensors_regridded_onto_a_virtual_grid_keep_every_tile(arch, folded, accessor):
    """A 1x12 grid of shards fits a Blackhole's 10x13 worker grid as it is; on a Wormhole's 8x8 it is laid onto
    3x4 cores row by row. Each regrid copies every tile to its new core (read by NoC coordinates, or through a
    TensorAccessor over the sharded source)."""
    options = f"mock-system-desc-arch={arch} disable-tolayout-folding=1 use-tensor-accessor-dma={int(accessor)}"
    binary = compile_ttir(REGRID, options)
    x = torch.randn(64, 384, generator=torch.Generator().manual_seed(2))
    (y,), stats = run_program(binary, [x])
    assert torch.equal(y, x)
    assert [s.cores for s in stats] == [1, 12, 8, 8]  # the input's tilize, the two regrids, the result's untilize
    _, root = load_bytes(binary, "regrid.ttm")
    virtual = [c.type.ref.desc for c in fbu.ttm_commands(fbu.as_list(root.programs)[0])
               if isinstance(c.type, fbm.CreateBufferCommandT) and list(c.type.ref.desc.shape)[:2] == [1, 12]]
    assert virtual and all((d.coreGrid.y, d.coreGrid.x) == (3, 4) if folded else d.coreGrid is None for d in virtual)


def test_back_to_back_regrids_fold_into_one_move():
    binary = compile_ttir(REGRID)  # to_layout folding is the default
    x = torch.randn(64, 384)
    (y,), stats = run_program(binary, [x])
    assert torch.equal(y, x) and stats == []
