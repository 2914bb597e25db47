"""Meshes (mappers, composers, topology), DRAM-sharded and resharded tensors, the hardware's numerics (block floats,
math fidelity) and the profiler's report, as tt-metal's op tests use them: a `device` fixture, torch goldens,
parametrized shapes, types and memory configs."""

import csv

import pytest
import torch

import ttnn
from profiler import trace
from ttmlir.runtime import RuntimeFailure
from ttnn_testing import assert_with_pcc


@pytest.fixture
def mesh_device(request):
    mesh = ttnn.open_mesh_device(ttnn.MeshShape(*request.param))
    yield mesh
    ttnn.close_mesh_device(mesh)


def _mapper(mesh, kind):
    rows, cols = tuple(mesh.shape)
    return {"replicate": lambda: ttnn.ReplicateTensorToMesh(mesh),
            "shard_w": lambda: ttnn.ShardTensorToMesh(mesh, dim=3),
            "shard_batch": lambda: ttnn.ShardTensorToMesh(mesh, dim=0),
            "shard_2d": lambda: ttnn.ShardTensor2dMesh(mesh, mesh_shape=(rows, cols), dims=(0, 3))}[kind]()


def _composer(mesh, kind):
    rows, cols = tuple(mesh.shape)
    return {"replicate": lambda: ttnn.ConcatMeshToTensor(mesh, dim=0),
            "shard_w": lambda: ttnn.ConcatMeshToTensor(mesh, dim=3),
            "shard_batch": lambda: ttnn.ConcatMeshToTensor(mesh, dim=0),
            "shard_2d": lambda: ttnn.ConcatMesh2dToTensor(mesh, mesh_shape=(rows, cols), dims=(0, 3))}[kind]()


@pytest.mark.parametrize("mesh_device", [(1, 2), (2, 2)], indirect=True)
@pytest.mark.parametrize("kind", ["replicate", "shard_w", "shard_batch", "shard_2d"])
def test_mesh_mapper_runs_each_chip_on_its_piece(mesh_device, kind):
    chips = mesh_device.get_num_devices()
    torch.manual_seed(0)
    x = torch.randn(4, 1, 32, 128, dtype=torch.bfloat16)
    t = ttnn.from_torch(x, layout=ttnn.TILE_LAYOUT, device=mesh_device, mesh_mapper=_mapper(mesh_device, kind))
    pieces = [ttnn.to_torch(p) for p in ttnn.get_device_tensors(t.cpu())]
    assert len(pieces) == chips and all(p.shape == t.shape for p in pieces)  # a mesh tensor's shape is one chip's
    out = ttnn.exp(ttnn.multiply(t, 0.5))
    assert out.tensor_topology() == t.tensor_topology()  # results lie over the mesh as their operands do
    whole = ttnn.to_torch(out, mesh_composer=_composer(mesh_device, kind))
    golden = torch.exp(x.float() * 0.5)
    expected = torch.cat([golden] * chips) if kind == "replicate" else golden
    assert_with_pcc(expected, whole.float(), 0.999)


@pytest.mark.parametrize("mesh_device", [(1, 2)], indirect=True)
def test_mesh_topology_and_refusals(mesh_device):
    x = torch.rand(2, 1, 32, 64)
    shard = ttnn.from_torch(x, layout=ttnn.TILE_LAYOUT, device=mesh_device,
                            mesh_mapper=ttnn.ShardTensorToMesh(mesh_device, dim=0))
    assert shard.tensor_topology().placements()[-1] == ttnn.PlacementShard(0)
    assert ttnn.empty_like(shard).tensor_topology() == shard.tensor_topology()
    plain = ttnn.full([32, 32], 1.5, device=mesh_device)
    assert plain.tensor_topology().placements() == [ttnn.PlacementReplicate()] * 2
    mapper = ttnn.create_mesh_mapper(mesh_device, ttnn.MeshMapperConfig([ttnn.PlacementReplicate(),
                                                                         ttnn.PlacementShard(3)]))
    assert ttnn.from_torch(x, device=mesh_device, mesh_mapper=mapper).shape == (2, 1, 32, 32)
    with pytest.raises(ValueError, match="does not split evenly over 2 chips"):
        ttnn.from_torch(torch.rand(3, 32), device=mesh_device, mesh_mapper=ttnn.ShardTensorToMesh(mesh_device, 0))
    with pytest.raises(ValueError, match="physical"):
        ttnn.open_mesh_device(ttnn.MeshShape(1, 2), physical_device_ids=[0, 1])


@pytest.mark.parametrize("layout", [ttnn.TILE_LAYOUT, ttnn.ROW_MAJOR_LAYOUT])
@pytest.mark.parametrize("strategy, tensor_shape, shard_shape", [
    (ttnn.TensorMemoryLayout.HEIGHT_SHARDED, (1, 1, 256, 64), (64, 64)),
    (ttnn.TensorMemoryLayout.WIDTH_SHARDED, (1, 1, 64, 256), (64, 64))])
def test_dram_sharded_one_shard_per_bank(device, layout, strategy, tensor_shape, shard_shape):
    banks = ttnn.CoreRangeSet({ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(3, 0))})
    config = ttnn.MemoryConfig(strategy, ttnn.BufferType.DRAM, ttnn.ShardSpec(banks, shard_shape,
                                                                             ttnn.ShardOrientation.ROW_MAJOR))
    x = torch.randn(tensor_shape, dtype=torch.bfloat16)
    before = device.mesh.allocated_bytes()["dram"]
    t = ttnn.from_torch(x, layout=layout, device=device, memory_config=config)
    assert t.is_sharded() and t.memory_config().buffer_type == ttnn.BufferType.DRAM
    # each of the four banks holds one bf16 shard (the allocator reserves the same range on every bank)
    assert device.mesh.allocated_bytes()["dram"] - before == shard_shape[0] * shard_shape[1] * 2
    assert torch.equal(ttnn.to_torch(ttnn.add(t, t)), x + x)


def test_dram_shards_beyond_the_banks_are_refused(device):
    banks = device.dram_grid_size().x
    wide = ttnn.CoreRangeSet({ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(banks, 0))})
    config = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.WIDTH_SHARDED, ttnn.BufferType.DRAM,
                               ttnn.ShardSpec(wide, (32, 32), ttnn.ShardOrientation.ROW_MAJOR))
    with pytest.raises(RuntimeError, match="DRAM bank grid"):
        ttnn.from_torch(torch.rand(32, 32 * (banks + 1)), device=device, memory_config=config)
    with pytest.raises(ValueError, match="BLOCK_SHARDED tensors live in L1"):
        ttnn.MemoryConfig(ttnn.TensorMemoryLayout.BLOCK_SHARDED, ttnn.BufferType.DRAM)


@pytest.mark.parametrize("out_dtype", [None, ttnn.bfloat8_b, ttnn.float32])
@pytest.mark.parametrize("orientation", [ttnn.ShardOrientation.ROW_MAJOR, ttnn.ShardOrientation.COL_MAJOR])
def test_interleaved_to_sharded_and_back(device, out_dtype, orientation):
    x = torch.randn(1, 1, 256, 256, dtype=torch.bfloat16)
    t = ttnn.from_torch(x, layout=ttnn.TILE_LAYOUT, device=device)
    grid = ttnn.CoreGrid(y=2, x=4)
    block = ttnn.interleaved_to_sharded(t, grid, (128, 64), ttnn.TensorMemoryLayout.BLOCK_SHARDED, orientation,
                                        out_dtype) if orientation == ttnn.ShardOrientation.ROW_MAJOR else \
        ttnn.interleaved_to_sharded(t, ttnn.create_sharded_memory_config(
            (1, 1, 256, 256), ttnn.CoreGrid(y=4, x=2), ttnn.ShardStrategy.BLOCK, orientation), out_dtype)
    assert block.memory_config().memory_layout == ttnn.TensorMemoryLayout.BLOCK_SHARDED
    assert block.dtype == (out_dtype or ttnn.bfloat16)
    back = ttnn.sharded_to_interleaved(block, ttnn.L1_MEMORY_CONFIG)
    assert not back.is_sharded() and back.memory_config().buffer_type == ttnn.BufferType.L1
    assert_with_pcc(x.float(), ttnn.to_torch(back).float(), 0.9999)
    with pytest.raises(RuntimeError, match="must be sharded"):
        ttnn.sharded_to_interleaved(back)


def test_copy_host_to_device_tensor_fills_the_buffer_in_place(device):
    x = torch.rand(1, 1, 64, 64)
    host = ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    slot = ttnn.allocate_tensor_on_device(host.shape, host.dtype, host.layout, device, ttnn.L1_MEMORY_CONFIG)
    address = slot.buffer_address()
    ttnn.copy_host_to_device_tensor(host, slot)
    assert slot.buffer_address() == address
    assert torch.equal(ttnn.to_torch(slot), x.bfloat16())
    with pytest.raises(RuntimeFailure, match="cannot be written"):
        ttnn.copy_host_to_device_tensor(ttnn.from_torch(torch.rand(32, 32), dtype=ttnn.bfloat16), slot)


@pytest.mark.parametrize("dtype, mantissa_bits", [(ttnn.bfloat8_b, 7), (ttnn.bfloat4_b, 3)])
@pytest.mark.parametrize("shape", [(32, 64), (2, 64, 96)])
def test_block_float_shares_an_exponent_per_16_values(device, dtype, mantissa_bits, shape):
    """bfp8/bfp4 as the packer stores them: each 16 values of a tile row share the exponent of the largest, so
    every value is a whole number of that group's quantum, within one quantum of the input."""
    torch.manual_seed(1)
    x = torch.randn(shape)
    stored = ttnn.to_torch(ttnn.from_torch(x, dtype=dtype, layout=ttnn.TILE_LAYOUT, device=device)).float()
    groups, values = x.reshape(-1, 16), stored.reshape(-1, 16)
    exponent = torch.floor(torch.log2(groups.abs().amax(-1, keepdim=True)))
    quantum = 2.0 ** (exponent - (mantissa_bits - 1))
    assert torch.equal(values / quantum, torch.round(values / quantum))
    assert ((values - groups).abs() <= quantum).all()
    assert_with_pcc(x, stored, 0.99 if dtype == ttnn.bfloat8_b else 0.9)


def test_math_fidelity_trades_accuracy_as_on_the_card(device):
    torch.manual_seed(0)
    a, b = torch.randn(64, 128), torch.randn(128, 64)
    ta, tb = (ttnn.from_torch(v, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device) for v in (a, b))
    golden = a.bfloat16().float() @ b.bfloat16().float()
    error = {}
    for fidelity in (ttnn.MathFidelity.LoFi, ttnn.MathFidelity.HiFi2, ttnn.MathFidelity.HiFi4):
        config = ttnn.WormholeComputeKernelConfig(math_fidelity=fidelity, fp32_dest_acc_en=True)
        out = ttnn.to_torch(ttnn.matmul(ta, tb, compute_kernel_config=config)).float()
        error[fidelity] = (out - golden).abs().max().item()
        assert_with_pcc(golden, out, 0.99)
    assert error[ttnn.MathFidelity.LoFi] > error[ttnn.MathFidelity.HiFi2] > error[ttnn.MathFidelity.HiFi4]


def test_profiler_reports_each_ttnn_op(device, tmp_path):
    a = ttnn.from_torch(torch.rand(1, 1, 64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    with trace(str(tmp_path), 8086):
        ttnn.softmax(ttnn.matmul(a, a), dim=-1)
    with open(tmp_path / "ops_perf_results.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["OP TYPE"] == "tt_dnn_device"]
    assert [r["OP CODE"] for r in rows] == ["ttnn.matmul", "ttnn.softmax"]
    assert all(int(r["DEVICE KERNEL DURATION [ns]"]) > 0 for r in rows)


@pytest.mark.parametrize("shape, dim", [((2, 64, 96), -1), ((4, 32, 33), 1)])
def test_experimental_sort_and_cumsum_names(device, shape, dim):
    torch.manual_seed(0)
    x = torch.randn(shape, dtype=torch.bfloat16)
    t = ttnn.from_torch(x, layout=ttnn.TILE_LAYOUT, device=device)
    values, _ = ttnn.experimental.sort(t, dim=dim, descending=True)
    assert torch.equal(ttnn.to_torch(values), torch.sort(x, dim=dim, descending=True).values)
    whole = torch.randint(-2, 3, shape).float()
    out = ttnn.zeros_like(ttnn.from_torch(whole, layout=ttnn.TILE_LAYOUT, device=device))
    summed = ttnn.experimental.cumsum(ttnn.from_torch(whole, layout=ttnn.TILE_LAYOUT, device=device), dim=dim,
                                      output=out)
    assert summed is out and torch.equal(ttnn.to_torch(out), torch.cumsum(whole, dim))


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("layout", [ttnn.TILE_LAYOUT, ttnn.ROW_MAJOR_LAYOUT])
def test_stack_adds_a_dimension(device, dim, layout):
    parts = [torch.rand(5, 40, dtype=torch.bfloat16) for _ in range(3)]
    out = ttnn.stack([ttnn.from_torch(p, layout=layout, device=device) for p in parts], dim)
    assert torch.equal(ttnn.to_torch(out), ttnn.get_golden_function(ttnn.stack)(parts, dim))
    with pytest.raises(RuntimeError, match="one shape|the shape"):
        ttnn.stack([ttnn.from_torch(parts[0], device=device), ttnn.from_torch(parts[0][:4], device=device)], dim)
