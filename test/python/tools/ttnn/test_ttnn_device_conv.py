"""tt-metal's device options, core grids, convolutions, pools and creation on the simulated device, in tt-metal's
op-test style: what a keyword changes is asserted (allocator regions, modelled cores, results against torch)."""

import pytest
import torch

import ttnn
from ttnn_testing import assert_with_pcc


def _cores_of_last_op(device):
    _op, perf, *_ = device.context.perf[-1]
    return perf.cores


def test_open_device_sizes_the_allocator_regions():
    device = ttnn.open_device(device_id=0, l1_small_size=16384, trace_region_size=1 << 20)
    chip = device.mesh.chips[0]
    default = ttnn.open_device(device_id=0).mesh.chips[0]
    assert chip.allocators["l1_small"].bank_size == 16384
    # l1_small is carved out of each core's L1, the trace region out of each DRAM bank
    assert chip.allocators["l1"].bank_size - default.allocators["l1"].bank_size == 32768 - 16384
    assert default.allocators["dram"].bank_size - chip.allocators["dram"].bank_size == 1 << 20
    assert chip.allocators["trace"].bank_size == 1 << 20
    with pytest.raises(ValueError, match="l1_small_size"):
        ttnn.open_device(device_id=0, l1_small_size=-1)
    with pytest.raises(ValueError, match="exceeds"):
        ttnn.open_device(device_id=0, l1_small_size=1 << 21)
    with pytest.raises(ValueError, match="column dispatch cores"):
        ttnn.open_device(device_id=0, dispatch_core_config=ttnn.DispatchCoreConfig(axis=ttnn.DispatchCoreAxis.COL))


def test_worker_l1_size_bounds_what_fits():
    device = ttnn.open_device(device_id=0, worker_l1_size=65536, l1_small_size=0)
    assert device.mesh.chips[0].allocators["l1"].bank_size == 65536
    big = torch.rand(64, 64 * 64)  # 16 KiB per bank interleaved over 64 banks fits; 4x that does not
    ttnn.from_torch(big, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                    memory_config=ttnn.L1_MEMORY_CONFIG)
    with pytest.raises(RuntimeError, match="out of memory"):
        ttnn.from_torch(torch.rand(64, 64 * 64 * 8), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                        memory_config=ttnn.L1_MEMORY_CONFIG)


@pytest.mark.parametrize("op", ["repeat", "matmul", "to_memory_config"])
def test_an_op_whose_l1_result_does_not_fit_fails_as_on_the_card(op):
    device = ttnn.open_device(device_id=0, worker_l1_size=65536, l1_small_size=0)
    # each result is 5 or 8 MiB of bf16: 80 or 128 KiB per bank over the 64 worker cores' L1
    a = ttnn.from_torch(torch.rand(320, 512), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    b = ttnn.from_torch(torch.rand(512, 8192), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    run = {"repeat": lambda config: ttnn.repeat(a, (1, 16), memory_config=config),
           "matmul": lambda config: ttnn.matmul(a, b, memory_config=config),
           "to_memory_config": lambda config: ttnn.to_memory_config(b, config)}[op]
    assert run(ttnn.DRAM_MEMORY_CONFIG) is not None  # the same result fits the DRAM banks
    held = device.mesh.allocated_bytes()["l1"]
    with pytest.raises(RuntimeError, match="out of memory.*in l1"):  # 64 KiB of L1 per core cannot hold it
        run(ttnn.L1_MEMORY_CONFIG)
    assert device.mesh.allocated_bytes()["l1"] == held  # nothing left behind by the failed op


def test_queue_ids_are_the_devices_queues():
    one = ttnn.open_device(device_id=0)
    t = ttnn.from_torch(torch.rand(32, 32), layout=ttnn.TILE_LAYOUT, device=one)
    ttnn.relu(t, queue_id=0)
    with pytest.raises(ValueError, match="queue_id 1"):
        ttnn.relu(t, queue_id=1)
    two = ttnn.open_device(device_id=0, num_command_queues=2)
    t2 = ttnn.from_torch(torch.rand(32, 32), layout=ttnn.TILE_LAYOUT, device=two)
    assert_with_pcc(torch.relu(ttnn.to_torch(t2).float()), ttnn.to_torch(ttnn.relu(t2, queue_id=1)).float())


def test_core_grids_confine_the_modelled_op(device):
    a = ttnn.from_torch(torch.rand(256, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    ttnn.matmul(a, a)
    assert _cores_of_last_op(device) == 64
    ttnn.matmul(a, a, core_grid=ttnn.CoreGrid(y=2, x=3))
    assert _cores_of_last_op(device) == 6
    ttnn.sum(a, dim=-1, sub_core_grids=ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(3, 0))]))
    assert _cores_of_last_op(device) == 4
    ttnn.argmax(ttnn.to_layout(a, ttnn.ROW_MAJOR_LAYOUT), dim=-1)
    assert _cores_of_last_op(device) == 1  # tt-metal's single-core argmax unless use_multicore
    with pytest.raises(RuntimeError, match="outside the device's 8x8 worker grid"):
        ttnn.sum(a, sub_core_grids=ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(8, 0))]))
    with pytest.raises(ValueError, match="no sub-device manager"):
        ttnn.relu(a, sub_device_ids=[ttnn.SubDeviceId(0)])
    manager = device.create_sub_device_manager([
        ttnn.SubDevice([ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(1, 1))])]),
        ttnn.SubDevice([ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(2, 0), ttnn.CoreCoord(2, 0))])])], 0)
    device.load_sub_device_manager(manager)
    ttnn.relu(a)
    assert _cores_of_last_op(device) == 5  # every loaded sub-device's cores
    ttnn.relu(a, sub_device_ids=[ttnn.SubDeviceId(1)])
    assert _cores_of_last_op(device) == 1
    device.clear_loaded_sub_device_manager()


def test_matmul_program_config_fuses_its_activation_once(device):
    x, w = torch.randn(1, 64, 64) * 0.1, torch.randn(64, 256) * 0.1
    tx, tw = (ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device) for t in (x, w))
    config = ttnn.MatmulMultiCoreReuseMultiCast1DProgramConfig(
        compute_with_storage_grid_size=ttnn.CoreCoord(4, 2), fused_activation=ttnn.UnaryWithParam(ttnn.UnaryOpType.RELU))
    out = ttnn.matmul(tx, tw, program_config=config, activation="relu")
    assert_with_pcc(torch.relu(x @ w), ttnn.to_torch(out).float(), 0.99)
    assert _cores_of_last_op(device) == 8  # 16 output tiles on the config's 4x2 grid
    with pytest.raises(ValueError, match="differ"):
        ttnn.matmul(tx, tw, program_config=config, activation="gelu")


@pytest.mark.parametrize("padding", [(1, 1), (0, 1, 1, 0)])
def test_conv2d_returns_dims_and_prepared_weights(device, padding):
    torch.manual_seed(0)
    x, w, b = torch.randn(2, 16, 10, 12), torch.randn(32, 16, 3, 3), torch.randn(1, 1, 1, 32)
    sides = padding if len(padding) == 4 else (padding[0],) * 2 + (padding[1],) * 2
    golden = torch.nn.functional.conv2d(torch.nn.functional.pad(x, (sides[2], sides[3], sides[0], sides[1])), w,
                                        b.flatten())
    kwargs = dict(weight_tensor=ttnn.from_torch(w, dtype=ttnn.bfloat16),
                  bias_tensor=ttnn.from_torch(b, dtype=ttnn.bfloat16), device=device, in_channels=16,
                  out_channels=32, batch_size=2, input_height=10, input_width=12, kernel_size=(3, 3),
                  padding=padding, conv_config=ttnn.Conv2dConfig(weights_dtype=ttnn.bfloat16,
                                                                 shard_layout=ttnn.TensorMemoryLayout.HEIGHT_SHARDED))
    nhwc = ttnn.from_torch(x.permute(0, 2, 3, 1), dtype=ttnn.bfloat16)
    out, (oh, ow), (pw, pb) = ttnn.conv2d(input_tensor=nhwc, return_output_dim=True, return_weights_and_bias=True,
                                          **kwargs)
    assert (oh, ow) == tuple(golden.shape[2:])
    assert out.is_sharded() and out.memory_config().memory_layout == ttnn.TensorMemoryLayout.HEIGHT_SHARDED
    got = ttnn.to_torch(out).float().reshape(2, oh, ow, 32).permute(0, 3, 1, 2)
    assert_with_pcc(golden, got, 0.999)
    assert pw.storage_type() == ttnn.StorageType.DEVICE  # prepared once, reused by the next call
    again = ttnn.conv2d(input_tensor=nhwc, **{**kwargs, "weight_tensor": pw, "bias_tensor": pb})
    assert torch.equal(ttnn.to_torch(again), ttnn.to_torch(out))
    with pytest.raises(ValueError, match="act_block_h_override"):
        ttnn.conv2d(input_tensor=nhwc, **{**kwargs, "conv_config": ttnn.Conv2dConfig(act_block_h_override=64)})


def test_conv2d_fused_activation_and_transpose(device):
    torch.manual_seed(0)
    x, w = torch.randn(1, 8, 6, 6), torch.randn(16, 8, 3, 3)
    nhwc = ttnn.from_torch(x.permute(0, 2, 3, 1), dtype=ttnn.bfloat16)
    out = ttnn.conv2d(input_tensor=nhwc, weight_tensor=ttnn.from_torch(w, dtype=ttnn.bfloat16), device=device,
                      in_channels=8, out_channels=16, batch_size=1, input_height=6, input_width=6,
                      kernel_size=(3, 3), conv_config=ttnn.Conv2dConfig(
                          activation=ttnn.UnaryWithParam(ttnn.UnaryOpType.RELU)))
    golden = torch.relu(torch.nn.functional.conv2d(x, w)).permute(0, 2, 3, 1).reshape(1, 1, -1, 16)
    assert_with_pcc(golden, ttnn.to_torch(out).float(), 0.999)
    wt = torch.randn(8, 4, 2, 2)  # IOHW
    out, (oh, ow) = ttnn.conv_transpose2d(
        input_tensor=nhwc, weight_tensor=ttnn.from_torch(wt, dtype=ttnn.bfloat16), device=device, in_channels=8,
        out_channels=4, batch_size=1, input_height=6, input_width=6, kernel_size=(2, 2), stride=(2, 2),
        return_output_dim=True)
    golden = torch.nn.functional.conv_transpose2d(x, wt, stride=2)
    assert (oh, ow) == (12, 12)
    assert_with_pcc(golden.permute(0, 2, 3, 1).reshape(1, 1, -1, 4), ttnn.to_torch(out).float(), 0.999)


def test_pools_and_upsample(device):
    torch.manual_seed(0)
    x = torch.randn(1, 32, 8, 8)
    flat = ttnn.from_torch(x.permute(0, 2, 3, 1).reshape(1, 1, 64, 32), dtype=ttnn.bfloat16, device=device)
    out = ttnn.max_pool2d(flat, 1, 8, 8, 32, [2, 2], [2, 2], [0, 0], [1, 1],
                          applied_shard_scheme=ttnn.TensorMemoryLayout.HEIGHT_SHARDED)
    assert out.is_sharded()
    golden = torch.nn.functional.max_pool2d(x, 2).permute(0, 2, 3, 1).reshape(1, 1, 16, 32)
    assert torch.equal(ttnn.to_torch(out).float(), golden.bfloat16().float())
    avg = ttnn.avg_pool2d(flat, 1, 8, 8, 32, [3, 3], [1, 1], [1, 1], count_include_pad=False)
    golden = torch.nn.functional.avg_pool2d(x, 3, 1, 1, count_include_pad=False).permute(0, 2, 3, 1).reshape(1, 1, -1, 32)
    assert_with_pcc(golden, ttnn.to_torch(avg).float(), 0.999)
    nhwc = ttnn.from_torch(x.permute(0, 2, 3, 1), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    assert_with_pcc(x.mean((2, 3)).reshape(1, 1, 1, 32), ttnn.to_torch(ttnn.global_avg_pool2d(nhwc)).float(), 0.999)
    up = ttnn.upsample(ttnn.to_layout(nhwc, ttnn.ROW_MAJOR_LAYOUT), 2)
    golden = torch.nn.functional.interpolate(x, scale_factor=2).permute(0, 2, 3, 1)
    assert_with_pcc(golden, ttnn.to_torch(up).float(), 0.999)
    with pytest.raises(TypeError, match="in_place_halo"):
        ttnn.max_pool2d(flat, 1, 8, 8, 32, [2, 2], [2, 2], [0, 0], in_place_halo=True)


def test_creation_as_tt_metal_spells_it(device):
    t = ttnn.arange(3, 40, 3, device=device, layout=ttnn.TILE_LAYOUT)
    assert t.shape == [13] and t.padded_shape == [32, 32]
    assert torch.equal(ttnn.to_torch(t).float(), torch.arange(3, 40, 3).float())
    like = ttnn.full_like(t, fill_value=2.5)
    assert torch.equal(ttnn.to_torch(like).float(), torch.full((13,), 2.5))
    target = ttnn.from_torch(torch.zeros(32, 64), dtype=ttnn.bfloat16, device=device,
                             memory_config=ttnn.L1_MEMORY_CONFIG)
    pages = len(ttnn.reports.get_buffer_pages(device))
    assert ttnn.full([32, 64], 7.0, device=device, optional_tensor=target) is target
    assert len(ttnn.reports.get_buffer_pages(device)) == pages  # written in place: no buffer left behind
    assert torch.equal(ttnn.to_torch(target).float(), torch.full((32, 64), 7.0))
    # the tutorials' spelling: the shape, then keywords
    noise = ttnn.to_torch(ttnn.rand((64, 96), dtype=ttnn.bfloat16, device=device, layout=ttnn.TILE_LAYOUT))
    # values in [0, 1) that bf16 may round up to 1
    assert noise.shape == (64, 96) and 0 <= noise.min() and noise.max() <= 1 and noise.std() > 0.1


def test_grouped_concat_and_sharded_output(device):
    a, b = torch.rand(1, 1, 64, 64), torch.rand(1, 1, 64, 32)
    ta, tb = (ttnn.from_torch(t, dtype=ttnn.bfloat16, device=device) for t in (a, b))
    out = ttnn.concat([ta, tb], dim=3, groups=2)
    golden = torch.cat([a[..., :32], b[..., :16], a[..., 32:], b[..., 16:]], dim=3)
    assert torch.equal(ttnn.to_torch(out).float(), golden.bfloat16().float())
    assert torch.equal(ttnn.concat.golden_function([a, b], 3, 2), golden)
    config = ttnn.create_sharded_memory_config((32, 96), ttnn.CoreGrid(y=1, x=2), ttnn.ShardStrategy.HEIGHT,
                                               use_height_and_width_as_shard_shape=True)
    sharded = ttnn.concat([ta, tb], dim=3, memory_config=config)  # the shards fit the result, not the inputs
    assert sharded.memory_config().shard_spec.shape == (32, 96)


def test_nd_shard_spec_as_its_2d_counterpart(device):
    x = torch.rand(1, 1, 49, 256)
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(3, 0))])
    config = ttnn.MemoryConfig(ttnn.BufferType.L1, ttnn.NdShardSpec(ttnn.Shape([1, 1, 49, 64]), grid))
    assert config.is_sharded() and config.nd_shard_spec is not None
    t = ttnn.from_torch(x, dtype=ttnn.bfloat16, device=device, memory_config=config)
    assert t.memory_config().memory_layout == ttnn.TensorMemoryLayout.WIDTH_SHARDED
    assert t.memory_config().shard_spec.shape == (49, 64)
    assert torch.equal(ttnn.to_torch(t), x.bfloat16())
    with pytest.raises(RuntimeError, match="no 2D sharded counterpart"):
        ttnn.from_torch(x, dtype=ttnn.bfloat16, device=device, memory_config=ttnn.MemoryConfig(
            ttnn.BufferType.L1, ttnn.NdShardSpec([1, 1, 7, 64], grid)))
