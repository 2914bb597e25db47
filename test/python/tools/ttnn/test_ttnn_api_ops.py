"""tt-metal's ttnn API on the simulated device, in tt-metal's op-test style: torch goldens, PCC."""

import pytest
import torch

import ttnn
from ttnn_testing import assert_with_pcc


@pytest.mark.parametrize("shape", [(32, 64), (2, 45, 70)])
@pytest.mark.parametrize("dtype", [ttnn.bfloat16, ttnn.float32])
def test_binary_tensor_scalar_and_broadcast(device, shape, dtype):
    torch.manual_seed(0)
    a, b = torch.rand(shape), torch.rand((1,) + shape[1:])
    ta = ttnn.from_torch(a, dtype=dtype, layout=ttnn.TILE_LAYOUT, device=device)
    tb = ttnn.from_torch(b, dtype=dtype, layout=ttnn.TILE_LAYOUT, device=device)
    assert_with_pcc(a + b, ttnn.to_torch(ttnn.add(ta, tb)).float())
    assert_with_pcc(a - 0.25, ttnn.to_torch(ttnn.sub(ta, 0.25)).float())
    assert_with_pcc(2.0 * a, ttnn.to_torch(2.0 * ta).float())
    assert_with_pcc(1.0 - a, ttnn.to_torch(1.0 - ta).float())
    fused = ttnn.add(ta, tb, activations=[ttnn.UnaryWithParam(ttnn.UnaryOpType.RELU)])
    assert_with_pcc(torch.relu(a + b), ttnn.to_torch(fused).float())


def test_in_place_and_output_tensor(device):
    a, b = torch.rand(32, 32), torch.rand(32, 32)
    ta = ttnn.from_torch(a, layout=ttnn.TILE_LAYOUT, device=device)
    tb = ttnn.from_torch(b, layout=ttnn.TILE_LAYOUT, device=device)
    out = ttnn.multiply_(ta, tb)
    assert out is ta
    assert_with_pcc(a * b, ttnn.to_torch(ta).float())
    target = ttnn.from_torch(torch.zeros(32, 32), layout=ttnn.TILE_LAYOUT, device=device)
    assert ttnn.exp(tb, output_tensor=target) is target
    assert_with_pcc(torch.exp(b), ttnn.to_torch(target).float(), 0.999)


@pytest.mark.parametrize("op", [ttnn.relu, ttnn.gelu, ttnn.sigmoid, ttnn.exp, ttnn.tanh, ttnn.silu])
def test_unary_matches_golden_function(device, op):
    x = torch.randn(64, 128, dtype=torch.bfloat16)
    golden = ttnn.get_golden_function(op)(x.float(), device=device)
    out = op(ttnn.from_torch(x, layout=ttnn.TILE_LAYOUT, device=device))
    assert_with_pcc(golden, ttnn.to_torch(out).float(), 0.999)


def test_composites(device):
    a, b = torch.rand(32, 32) + 0.5, torch.tensor([[0.0, 2.0] * 16] * 32)
    ta, tb = (ttnn.from_torch(t, layout=ttnn.TILE_LAYOUT, device=device) for t in (a, b))
    assert torch.equal(ttnn.to_torch(ttnn.eqz(tb)).float(), (b == 0).float())
    assert_with_pcc(torch.where(b == 0, 0.0, a / b), ttnn.to_torch(ttnn.div_no_nan(ta, tb)).float(), 0.999)
    assert_with_pcc(torch.lerp(a, b, 0.3), ttnn.to_torch(ttnn.lerp(ta, tb, 0.3)).float(), 0.999)
    assert_with_pcc(torch.where(b > 0, a, b), ttnn.to_torch(ttnn.where(ttnn.gtz(tb), ta, tb)).float())


@pytest.mark.parametrize("dim", [None, -1, (0, 1)])
@pytest.mark.parametrize("keepdim", [True, False])
def test_reductions_dim_keepdim(device, dim, keepdim):
    x = torch.rand(4, 37, 63)
    t = ttnn.from_torch(x, layout=ttnn.TILE_LAYOUT, device=device)
    for name in ("sum", "mean", "max"):
        golden = ttnn.get_golden_function(getattr(ttnn, name))(x, dim=dim, keepdim=keepdim)
        got = ttnn.to_torch(getattr(ttnn, name)(t, dim=dim, keepdim=keepdim)).float()
        assert got.shape == golden.shape
        assert torch.allclose(got, golden, rtol=2e-2, atol=2e-1 if name == "sum" else 2e-2)
    var = ttnn.to_torch(ttnn.var(t, dim=-1)).float()
    assert torch.allclose(var, torch.var(x, dim=-1), atol=1e-2)


def test_softmax_norms_matmul(device):
    x, w = torch.randn(64, 96), torch.randn(96, 32)
    tx, tw = (ttnn.from_torch(t, layout=ttnn.TILE_LAYOUT, device=device) for t in (x, w))
    assert_with_pcc(torch.softmax(x, -1), ttnn.to_torch(ttnn.softmax(tx, dim=-1, numeric_stable=True)).float(), 0.999)
    assert_with_pcc(torch.nn.functional.layer_norm(x, [96]), ttnn.to_torch(ttnn.layer_norm(tx, epsilon=1e-5)).float(),
                    0.999)
    assert_with_pcc(x @ w, ttnn.to_torch(ttnn.matmul(tx, tw, core_grid=ttnn.CoreGrid(y=2, x=2))).float(), 0.999)
    assert_with_pcc(torch.relu(x @ w), ttnn.to_torch(ttnn.linear(tx, tw, activation="relu")).float(), 0.999)
    with pytest.raises(RuntimeError, match="does not fit the device.s 8x8 worker grid"):
        ttnn.matmul(tx, tw, core_grid=ttnn.CoreGrid(y=9, x=8))


def test_data_movement_and_creation(device):
    x = torch.rand(2, 3, 32, 64)
    t = ttnn.from_torch(x, layout=ttnn.TILE_LAYOUT, device=device)
    assert torch.equal(ttnn.to_torch(ttnn.permute(t, (0, 1, 3, -2))).float(), x.permute(0, 1, 3, 2))
    assert list(ttnn.to_torch(ttnn.concat([t, t], dim=1)).shape) == [2, 6, 32, 64]
    assert list(ttnn.to_torch(t[:, 1:3, ::2, :5]).shape) == [2, 2, 16, 5]
    assert [list(p.shape) for p in ttnn.split(t, 2, dim=1)] == [[2, 2, 32, 64], [2, 1, 32, 64]]
    full = ttnn.full([3, 5], 3, device=device)  # tt-metal's default type, whatever the fill value's
    assert full.dtype == ttnn.bfloat16 and ttnn.is_tensor_storage_on_device(full)
    assert ttnn.full([3, 5], 3, dtype=ttnn.int32, device=device).dtype == ttnn.int32
    assert torch.equal(ttnn.to_torch(ttnn.zeros_like(t)).float(), torch.zeros_like(x))
    rm = ttnn.from_torch(torch.rand(5, 40), device=device)
    tiled = ttnn.tilize_with_zero_padding(rm)
    assert list(tiled.shape) == [32, 64] and tiled.layout == ttnn.TILE_LAYOUT
    assert list(ttnn.untilize_with_unpadding(tiled, [4, 39]).shape) == [5, 40]


@pytest.mark.parametrize("strategy, shard", [(ttnn.ShardStrategy.HEIGHT, (128, 256)),
                                             (ttnn.ShardStrategy.WIDTH, (1024, 32)),
                                             (ttnn.ShardStrategy.BLOCK, (512, 64))])
def test_sharded_tensors_place_one_shard_per_core(device, strategy, shard):
    a = torch.rand(1, 1, 1024, 256)
    config = ttnn.create_sharded_memory_config(shard, core_grid=ttnn.CoreGrid(y=2, x=4), strategy=strategy,
                                               use_height_and_width_as_shard_shape=True)
    t = ttnn.to_memory_config(ttnn.from_torch(a, layout=ttnn.TILE_LAYOUT, device=device), config)
    assert t.is_sharded() and t.memory_config() == config and t.value.shard_grid is not None
    before = device.mesh.allocated_bytes()["l1"]
    out = ttnn.add(t, t, memory_config=config)
    # the result holds one whole shard on each of its cores' L1 banks (interleaved, it would spread over all 64);
    # from_torch keeps torch's float32, so a shard is 4 bytes an element, and nothing else stays allocated
    assert device.mesh.allocated_bytes()["l1"] - before == shard[0] * shard[1] * 4
    assert_with_pcc(a + a, ttnn.to_torch(out).float())
    with pytest.raises(RuntimeError, match="do not fit"):
        ttnn.create_sharded_memory_config((64, 256), ttnn.CoreGrid(y=2, x=4), ttnn.ShardStrategy.HEIGHT,
                                          use_height_and_width_as_shard_shape=True) and \
            ttnn.to_memory_config(t, ttnn.create_sharded_memory_config(
                (64, 256), ttnn.CoreGrid(y=2, x=4), ttnn.ShardStrategy.HEIGHT,
                use_height_and_width_as_shard_shape=True))


def test_device_queries_and_program_cache():
    with ttnn.manage_device(device_id=0) as device:
        assert device.arch() == ttnn.Arch.WORMHOLE_B0
        grid = device.compute_with_storage_grid_size()
        assert (grid.x, grid.y) == (8, 8) and device.core_grid.num_cores == 64
        t = ttnn.from_torch(torch.rand(32, 32), layout=ttnn.TILE_LAYOUT, device=device)
        ttnn.relu(t)
        ttnn.relu(t)
        assert device.num_program_cache_entries() == 1
        device.disable_and_clear_program_cache()
        assert device.num_program_cache_entries() == 0
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        ttnn.open_device(device_id=0, bogus=1)


def test_tutorial_first_steps():
    """tt-metal's tutorial opening: a device, tensors, add/matmul/softmax, a sharded tensor, close."""
    device = ttnn.open_device(device_id=0, l1_small_size=8192)
    a = ttnn.from_torch(torch.rand(64, 64, dtype=torch.bfloat16), layout=ttnn.TILE_LAYOUT, device=device)
    b = ttnn.from_torch(torch.rand(64, 64, dtype=torch.bfloat16), layout=ttnn.TILE_LAYOUT, device=device)
    c = ttnn.softmax(ttnn.matmul(a + b, b), dim=-1)
    expected = torch.softmax((ttnn.to_torch(a).float() + ttnn.to_torch(b).float()) @ ttnn.to_torch(b).float(), -1)
    assert_with_pcc(expected, ttnn.to_torch(c).float(), 0.99)
    sharded = ttnn.to_memory_config(a, ttnn.create_sharded_memory_config(
        a.shape, core_grid=ttnn.CoreGrid(y=2, x=1), strategy=ttnn.ShardStrategy.HEIGHT))
    assert sharded.memory_config().shard_spec.shape == (32, 64)
    ttnn.close_device(device)
