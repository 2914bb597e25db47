"""Multi-chip programs on the kernel path (`--ttir-to-ttmetal-pipeline` on a mesh): each chip runs the program's
kernels on its own grid, mesh_shards split and join the host tensors, the collectives run over the fabric between
the chips. Results are checked against torch computing the whole (unsharded) graph."""

from collections import OrderedDict

import pytest
import torch

from ttmlir.compiler import lower_to_ttmetal
from ttmlir.runtime import ccl
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

SHARD = ('"ttir.mesh_shard"(%{src}) <{{shard_dims = array<i64: {dims}>, shard_direction = '
         '#ttcore.shard_direction<{direction}>, shard_shape = array<i64: {shape}>, shard_type = '
         '#ttcore.shard_type<{kind}>}}> : (tensor<{a}xf32>) -> tensor<{b}xf32>')

TP_MLP = """
module attributes {{ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x{n}>]>}} {{
  func.func @tp_mlp(%x: tensor<64x128xf32>, %w1: tensor<128x256xf32>, %w2: tensor<256x128xf32>) -> (tensor<64x128xf32>, tensor<64x256xf32>) {{
    %w1s = {w1s}
    %w2s = {w2s}
    %h0 = "ttir.matmul"(%x, %w1s) : (tensor<64x128xf32>, tensor<128x{hs}xf32>) -> tensor<64x{hs}xf32>
    %h = "ttir.relu"(%h0) : (tensor<64x{hs}xf32>) -> tensor<64x{hs}xf32>
    %p = "ttir.matmul"(%h, %w2s) : (tensor<64x{hs}xf32>, tensor<{hs}x128xf32>) -> tensor<64x128xf32>
    %y = "ttir.all_reduce"(%p) <{{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    %g = "ttir.all_gather"(%h) <{{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}}> : (tensor<64x{hs}xf32>) -> tensor<64x256xf32>
    %yo = {yo}
    %go = {go}
    return %yo, %go : tensor<64x128xf32>, tensor<64x256xf32>
  }}
}}
"""


def _tp_mlp(n: int) -> str:
    hs = 256 // n
    return TP_MLP.format(
        n=n, hs=hs,
        w1s=SHARD.format(src="w1", dims="-1, 1", direction="full_to_shard", shape=f"1, {n}", kind="devices",
                         a="128x256", b=f"128x{hs}"),
        w2s=SHARD.format(src="w2", dims="-1, 0", direction="full_to_shard", shape=f"{n}, 1", kind="devices",
                         a="256x128", b=f"{hs}x128"),
        yo=SHARD.format(src="y", dims="-1", direction="shard_to_full", shape="1", kind="replicate", a="64x128",
                        b="64x128"),
        go=SHARD.format(src="g", dims="-1", direction="shard_to_full", shape="1", kind="replicate", a="64x256",
                        b="64x256"))


def _pcc(a: torch.Tensor, b: torch.Tensor) -> float:
    return float(torch.corrcoef(torch.stack([a.flatten().float(), b.flatten().float()]))[0, 1])


@pytest.mark.parametrize("n", [2, 8])
def test_a_tensor_parallel_mlp_matches_the_unsharded_one(n):
    """Column-parallel then row-parallel matmul: each chip's partial product all-reduced, its hidden slice
    all-gathered; both equal what one chip computes on the whole weights."""
    g = torch.Generator().manual_seed(n)
    x, w1, w2 = torch.randn(64, 128, generator=g), torch.randn(128, 256, generator=g) / 12, \
        torch.randn(256, 128, generator=g) / 16
    outputs, stats = run_program(translate(lower_to_ttmetal(_tp_mlp(n), "<test>", "")), [x, w1, w2])
    hidden = torch.relu(x @ w1)
    assert outputs[0].shape == (64, 128) and outputs[1].shape == (64, 256)
    assert _pcc(outputs[0], hidden @ w2) > 0.9999 and torch.allclose(outputs[0], hidden @ w2, atol=0.05)
    assert _pcc(outputs[1], hidden) > 0.9999 and torch.allclose(outputs[1], hidden, atol=0.05)
    assert len(stats) >= 3  # chip 0's launches: the two matmuls and the relu


COLLECTIVES_2X2 = """
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x2>]>} {
  func.func @collectives(%a: tensor<128x64xf32>) -> (tensor<128x64xf32>, tensor<128x64xf32>, tensor<64x64xf32>, tensor<128x64xf32>) {
    %s = "ttir.mesh_shard"(%a) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<128x64xf32>) -> tensor<64x32xf32>
    %rows = "ttir.all_gather"(%s) <{all_gather_dim = 0 : si32, cluster_axis = 0 : ui32}> : (tensor<64x32xf32>) -> tensor<128x32xf32>
    %sum = "ttir.all_reduce"(%s) <{cluster_axis = 0 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %max = "ttir.reduce_scatter"(%s) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<max>, scatter_dim = 0 : si32}> : (tensor<64x32xf32>) -> tensor<32x32xf32>
    %part = "ttir.mesh_partition"(%rows) <{cluster_axis = 0 : ui32, dim = 0 : si32}> : (tensor<128x32xf32>) -> tensor<64x32xf32>
    %o1 = "ttir.mesh_shard"(%rows) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<128x32xf32>) -> tensor<128x64xf32>
    %o2 = "ttir.mesh_shard"(%sum) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x32xf32>) -> tensor<128x64xf32>
    %o3 = "ttir.mesh_shard"(%max) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x32xf32>) -> tensor<64x64xf32>
    %o4 = "ttir.mesh_shard"(%part) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x32xf32>) -> tensor<128x64xf32>
    return %o1, %o2, %o3, %o4 : tensor<128x64xf32>, tensor<128x64xf32>, tensor<64x64xf32>, tensor<128x64xf32>
  }
}
"""


def test_collectives_along_each_axis_of_a_2x2_mesh():
    """Chip (r, c) holds block (r, c) of the input; collectives along axis 0 exchange between the rows of chips,
    along axis 1 between the columns."""
    a = torch.randn(128, 64, generator=torch.Generator().manual_seed(4))
    gathered, summed, scattered, partitioned = run_program(
        translate(lower_to_ttmetal(COLLECTIVES_2X2, "<test>", "")), [a])[0]
    torch.testing.assert_close(gathered, a)  # each column of chips gathers its column of blocks
    top, bottom = a[:64], a[64:]
    torch.testing.assert_close(summed, torch.cat([top + bottom] * 2, 0))
    blocks = [a[r * 64:(r + 1) * 64, c * 32:(c + 1) * 32] for r in range(2) for c in range(2)]
    row_max = [torch.maximum(blocks[2 * r], blocks[2 * r + 1]) for r in range(2)]
    # chip (r, c) keeps rows [32c, 32c+32) of its row's max; joined along dim 0 by r, along dim 1 by c
    expected = torch.cat([torch.cat([row_max[r][32 * c:32 * (c + 1)] for c in range(2)], 1) for r in range(2)], 0)
    torch.testing.assert_close(scattered, expected)
    torch.testing.assert_close(partitioned, a)  # the gathered column cut back to each chip's own block


def test_a_wrong_fabric_is_caught(monkeypatch):
    """The check above is not vacuous: a fabric that drops the other chips' partial sums gives another result."""
    monkeypatch.setattr(ccl, "all_reduce", lambda shards, reduce_type, axis, mesh: list(shards))
    g = torch.Generator().manual_seed(2)
    x, w1, w2 = torch.randn(64, 128, generator=g), torch.randn(128, 256, generator=g), torch.randn(256, 128, generator=g)
    outputs, _ = run_program(translate(lower_to_ttmetal(_tp_mlp(2), "<test>", "")), [x, w1, w2])
    assert not torch.allclose(outputs[0], torch.relu(x @ w1) @ w2, atol=0.5)


def test_the_builder_runs_a_multi_chip_graph_against_its_goldens():
    """The TTIR builder's goldens (written apart from the runtime's collectives) check each chip's run."""
    from builder.base.builder_apis import compile_and_execute_ttir
    from builder.base.builder_enums import MeshShardDirection, MeshShardType

    def module(builder):
        @builder.func([(64, 128), (128, 64)], [torch.float32, torch.float32])
        def row_parallel(x, w, builder):
            xs = builder.mesh_shard(x, shard_direction=MeshShardDirection.FullToShard.value,
                                    shard_type=MeshShardType.Devices.value, shard_shape=(1, 2), shard_dims=(-1, 1))
            ws = builder.mesh_shard(w, shard_direction=MeshShardDirection.FullToShard.value,
                                    shard_type=MeshShardType.Devices.value, shard_shape=(2, 1), shard_dims=(-1, 0))
            total = builder.all_reduce(builder.matmul(xs, ws), reduce_type="#ttcore.reduce_type<sum>", cluster_axis=1)
            return builder.mesh_shard(total, shard_direction=MeshShardDirection.ShardToFull.value,
                                      shard_type=MeshShardType.Replicate.value, shard_shape=(1,), shard_dims=(-1,))

    report = compile_and_execute_ttir(module, target="ttmetal", mesh_dict=OrderedDict([("x", 1), ("y", 2)]))
    assert report["program_index_0"]["output_0"]["actual_pcc"] > 0.999


def test_an_input_sharded_in_advance_is_each_chips_piece():
    """An identity mesh_shard moves nothing when each chip is given its piece (the builder's goldens); given the
    whole tensor, as ttrt gives every chip the program's inputs, each chip keeps the piece it would hold."""
    from builder.base.builder_apis import compile_and_execute_ttir, compile_ttir_to_flatbuffer
    from builder.base.builder_enums import MeshShardDirection, MeshShardType

    def module(builder):
        @builder.func([(64, 128)], [torch.float32])
        def model(x, builder):
            builder.preshard_arg(x, shard_dims=(-1, 1))
            xs = builder.mesh_shard(x, shard_direction=MeshShardDirection.FullToShard.value,
                                    shard_type=MeshShardType.Identity.value, shard_shape=(1, 2), shard_dims=(-1, 1))
            return builder.mesh_shard(builder.exp(xs), shard_direction=MeshShardDirection.ShardToFull.value,
                                      shard_type=MeshShardType.Devices.value, shard_shape=(1, 2), shard_dims=(-1, 1))

    mesh = OrderedDict([("x", 1), ("y", 2)])
    report = compile_and_execute_ttir(module, target="ttmetal", mesh_dict=mesh)
    assert report["program_index_0"]["output_0"]["actual_pcc"] > 0.999
    _, path, _, _ = compile_ttir_to_flatbuffer(module, target="ttmetal", mesh_dict=mesh)
    x = torch.randn(64, 128, generator=torch.Generator().manual_seed(1))
    outputs, _ = run_program(open(path, "rb").read(), [x])
    torch.testing.assert_close(outputs[0], torch.exp(x), rtol=0.02, atol=0.02)


def test_the_fabric_time_grows_with_the_chips_of_the_ring():
    """An all_reduce passes 2(n-1) pieces of 1/n of the tensor around the ring of n chips, an all_gather n-1 whole
    ones: more chips, more steps, each paying the link's latency."""
    from ttmlir.runtime.metal.grid import Grid
    from ttmlir.runtime.metal.program import MeshProgramRunner
    from ttmlir.target import flatbuffer as fbu

    times = {}
    for n in (2, 8):
        _, root = fbu.load_bytes(translate(lower_to_ttmetal(_tp_mlp(n), "<test>", "")), "<test>", expect="ttm")
        runner = MeshProgramRunner(lambda: Grid("wormhole_b0"), fbu.as_list(root.programs)[0])
        runner.run([torch.randn(64, 128), torch.randn(128, 256), torch.randn(256, 128)])
        assert len(runner.chips) == n and [c["kind"] for c in runner.collectives] == ["all_reduce", "all_gather"]
        times[n] = [c["fabric_ns"] for c in runner.collectives]
    # all_reduce: 2 steps of 16 KiB vs 14 of 4 KiB at 12.5 GB/s and 1 us a hop
    assert times[2][0] == pytest.approx(2 * (16384 / 12.5 + 1000)) and times[8][0] == pytest.approx(14 * (4096 / 12.5 + 1000))
    assert times[8][1] > times[2][1] > 0


DISTRIBUTED_RMS_NORM = """
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @norm(%x: tensor<32x256xf32>, %w: tensor<256xf32>, %r: tensor<32x256xf32>) -> tensor<32x256xf32> {
    %xs = "ttir.mesh_shard"(%x) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x256xf32>) -> tensor<32x128xf32>
    %ws = "ttir.mesh_shard"(%w) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<256xf32>) -> tensor<128xf32>
    %rs = "ttir.mesh_shard"(%r) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x256xf32>) -> tensor<32x128xf32>
    %n = "ttir.distributed_rms_norm"(%xs, %ws, %rs) <{cluster_axis = 1 : ui32, epsilon = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<32x128xf32>, tensor<128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %o = "ttir.mesh_shard"(%n) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x128xf32>) -> tensor<32x256xf32>
    return %o : tensor<32x256xf32>
  }
}
"""


def test_a_distributed_rms_norm_normalizes_the_whole_rows():
    """Each chip holds half of every row: the all-reduced sums of squares give the whole rows' mean square."""
    g = torch.Generator().manual_seed(3)
    x, w, r = torch.randn(32, 256, generator=g), torch.randn(256, generator=g), torch.randn(32, 256, generator=g)
    outputs, _ = run_program(translate(lower_to_ttmetal(DISTRIBUTED_RMS_NORM, "<test>", "")), [x, w, r])
    y = x + r
    torch.testing.assert_close(outputs[0], y * torch.rsqrt((y * y).mean(-1, keepdim=True) + 1e-5) * w,
                               rtol=1e-3, atol=1e-3)


EXCHANGES_1X4 = """
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  func.func @exchanges(%a: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>) {
    %s = "ttir.mesh_shard"(%a) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x128xf32>) -> tensor<64x32xf32>
    %p = "ttir.collective_permute"(%s) <{source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %t = "ttir.all_to_all"(%s) <{split_dim = 0 : si32, concat_dim = 1 : si32, split_count = 4 : si32, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}> : (tensor<64x32xf32>) -> tensor<16x128xf32>
    %b = "ttir.collective_broadcast"(%s) <{replica_groups = dense<[[2, 0, 1, 3]]> : tensor<1x4xi64>}> : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %po = "ttir.mesh_shard"(%p) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x32xf32>) -> tensor<64x128xf32>
    %to = "ttir.mesh_shard"(%t) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 4, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<16x128xf32>) -> tensor<64x128xf32>
    %bo = "ttir.mesh_shard"(%b) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x32xf32>) -> tensor<64x128xf32>
    return %po, %to, %bo : tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>
  }
}
"""


def test_exchanges_between_chips_named_by_id():
    """Chip i holds column block i: a permute around the ring shifts the blocks by one chip, an all_to_all hands
    chip i row block i of every chip's block, a broadcast gives every chip the group's first chip's block."""
    a = torch.randn(64, 128, generator=torch.Generator().manual_seed(5))
    blocks = list(a.chunk(4, 1))
    permuted, transposed, broadcast = run_program(translate(lower_to_ttmetal(EXCHANGES_1X4, "<test>", "")), [a])[0]
    torch.testing.assert_close(permuted, torch.cat([blocks[3], *blocks[:3]], 1))
    torch.testing.assert_close(transposed, torch.cat([torch.cat([b.chunk(4, 0)[i] for b in blocks], 1)
                                                     for i in range(4)], 0))
    torch.testing.assert_close(broadcast, torch.cat([blocks[2]] * 4, 1))


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["f32", "bf16"])
@pytest.mark.parametrize("gather_dim", [0, 1])
def test_an_all_gather_over_eight_chips_matches_its_golden(gather_dim, dtype):
    """A 128x1024 tensor split over a 1x8 ring (each chip 128x128), gathered along either dim and joined back: the
    builder's golden for each op checks the run."""
    from builder.base.builder_apis import compile_and_execute_ttir
    from builder.base.builder_enums import MeshShardDirection, MeshShardType

    def module(builder):
        @builder.func([(128, 1024)], [dtype])
        def gather(x, builder):
            piece = builder.mesh_shard(x, shard_direction=MeshShardDirection.FullToShard.value,
                                       shard_type=MeshShardType.Devices.value, shard_shape=(1, 8), shard_dims=(0, 1))
            whole = builder.all_gather(piece, all_gather_dim=gather_dim, cluster_axis=1)
            return builder.mesh_shard(whole, shard_direction=MeshShardDirection.ShardToFull.value,
                                      shard_type=MeshShardType.Devices.value, shard_shape=(1, 8), shard_dims=(0, 1))

    report = compile_and_execute_ttir(module, target="ttmetal", mesh_dict=OrderedDict([("x", 1), ("y", 8)]),
                                      pipeline_options=["mesh-topology=linear,ring"], check_atol=True)
    assert report["program_index_0"]["output_0"]["allclose"]


def test_pieces_for_another_count_of_chips_are_refused():
    from ttmlir.runtime.metal.core import MetalError

    data = translate(lower_to_ttmetal(_tp_mlp(2), "<test>", ""))
    with pytest.raises(MetalError, match=r"input 0 gives 3 piece\(s\) to the 2 chips of program 'tp_mlp' \(1x2 mesh\)"):
        run_program(data, [[torch.randn(64, 128)] * 3, torch.randn(128, 256), torch.randn(256, 128)])


def test_every_chip_holds_its_own_results():
    """Without a mesh_shard joining them, each chip's result is its own: here each chip's block after a permute
    around the 1x4 ring is its left neighbour's, and the joined outputs are the same on every chip."""
    from ttmlir.runtime.metal.program import run_program_on_mesh

    text = """
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  func.func @ring(%a: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %0 = "ttir.collective_permute"(%a) <{source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
}
"""
    pieces = [torch.full((32, 32), float(chip)) for chip in range(4)]
    chips, _ = run_program_on_mesh(translate(lower_to_ttmetal(text, "<test>", "")), [pieces])
    assert [float(chip[0][0, 0]) for chip in chips] == [3.0, 0.0, 1.0, 2.0]



REPLICATED_WEIGHT = """
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @doubled(%x: tensor<64x64xf32>, %w: tensor<1000x2040xf32>) -> (tensor<64x64xf32>, tensor<1000x2040xf32>) {
    %xs = "ttir.mesh_shard"(%x) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x64xf32>) -> tensor<64x32xf32>
    %y = "ttir.neg"(%xs) : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %w2 = "ttir.add"(%w, %w) : (tensor<1000x2040xf32>, tensor<1000x2040xf32>) -> tensor<1000x2040xf32>
    %yo = "ttir.mesh_shard"(%y) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x32xf32>) -> tensor<64x64xf32>
    return %yo, %w2 : tensor<64x64xf32>, tensor<1000x2040xf32>
  }
}
"""


def test_a_replicated_input_takes_its_dram_once(monkeypatch):
    """An input every chip of the mesh gets alike (here not in whole tiles: first copied into a tile-padded host
    buffer) is copied once for all chips, written into DRAM by one chip and its whole pages shared with the other
    chips' grids (not copied per chip); a result every chip reads back alike is held once; the results are as on
    one chip."""
    from ttmlir.runtime.metal.grid import Grid
    from ttmlir.runtime.metal.program import MeshProgramRunner
    from ttmlir.target import flatbuffer as fbu

    shared = []
    share = Grid.share_dram

    def counted(grid, source, start, end):
        share(grid, source, start, end)
        shared.append(sum(grid.dram[key] is source.dram.get(key) for key in grid.shared_pages))
    monkeypatch.setattr(Grid, "share_dram", counted)
    module = lower_to_ttmetal(REPLICATED_WEIGHT, "<test>", "default-input-memspace=dram")
    g = torch.Generator().manual_seed(3)
    x, w = torch.randn(64, 64, generator=g), torch.randn(1000, 2040, generator=g)
    _, root = fbu.load_bytes(translate(module), "<test>", expect="ttm")
    runner = MeshProgramRunner(Grid, fbu.as_list(root.programs)[0])
    y, w2 = runner.run([x, w])
    assert torch.equal(y, -x) and torch.equal(w2, w + w)
    assert max(shared) * (1 << 16) >= w.numel() * 4 * 3 // 4  # most of the weight's 8 MiB held once for both chips
    first, second = runner.chip_results  # what both chips compute alike is held once
    assert first[1] is second[1]


def test_a_chip_writing_a_shared_dram_page_writes_its_own_copy():
    """Pages shared between two chips' grids stay each chip's memory: a write on one changes only that chip's, the
    range's partial pages at its ends are copies from the start."""
    from ttmlir.runtime.metal.grid import Grid

    first, second = Grid(), Grid()
    data = torch.arange(3 << 16, dtype=torch.int32).to(torch.uint8)
    first.write(first.dram_addr(1, 1000), data)
    second.share_dram(first, 1000, 1000 + data.numel())
    assert second.read(second.dram_addr(1, 1000), data.numel()).equal(data)
    assert first.dram[(1, 1)] is second.dram[(1, 1)] and first.dram[(1, 0)] is not second.dram[(1, 0)]
    second.write(second.dram_addr(1, 1 << 16), torch.full((8,), 7, dtype=torch.uint8))
    first.write(first.dram_addr(1, 1200), torch.full((8,), 9, dtype=torch.uint8))
    assert first.read(first.dram_addr(1, 1 << 16), 8).equal(data[(1 << 16) - 1000:][:8])
    assert second.read(second.dram_addr(1, 1 << 16), 8).tolist() == [7] * 8
    assert second.read(second.dram_addr(1, 1200), 8).equal(data[200:208])
