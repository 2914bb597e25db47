"""The issue's op set not covered elsewhere here, each against its torch golden as tt-metal's op tests check it:
top-k, argmax, cumsum, group and batch norm, repeat_interleave, split/chunk, embedding, tilize padding variants."""

import pytest
import torch

import ttnn
from ttnn_testing import assert_with_pcc


def _device_tensor(x, device, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT):
    return ttnn.from_torch(x, dtype=dtype, layout=layout, device=device)


@pytest.mark.parametrize("shape, k, dim, largest", [((1, 1, 32, 64), 8, -1, True), ((2, 64, 128), 32, -1, False),
                                                    ((4, 96, 32), 4, 1, True)])
def test_topk_values_and_indices(device, shape, k, dim, largest):
    torch.manual_seed(0)
    x = torch.randn(shape, dtype=torch.bfloat16)
    values, indices = ttnn.topk(_device_tensor(x, device), k, dim=dim, largest=largest)
    assert indices.dtype == ttnn.uint16  # tt-metal's index type: exact past bf16's 256
    golden_values, _ = torch.topk(x, k, dim=dim, largest=largest)
    assert torch.equal(ttnn.to_torch(values), golden_values)
    # an index may differ from torch's on ties; the value it points at may not
    picked = torch.gather(x, dim, ttnn.to_torch(indices).long())
    assert torch.equal(picked, golden_values)


@pytest.mark.parametrize("dim, keepdim", [(-1, False), (-1, True), (None, False)])
@pytest.mark.parametrize("use_multicore", [False, True])
def test_argmax(device, dim, keepdim, use_multicore):
    torch.manual_seed(1)
    x = torch.randn(1, 1, 32, 64, dtype=torch.bfloat16)
    t = _device_tensor(x, device, layout=ttnn.ROW_MAJOR_LAYOUT)
    result = ttnn.argmax(t, dim=dim, keepdim=keepdim, use_multicore=use_multicore)
    assert result.dtype == ttnn.uint32  # the flattened index (up to 2047 here) is exact
    out = ttnn.to_torch(result)
    golden = ttnn.get_golden_function(ttnn.argmax)(x, dim=dim, keepdim=keepdim)
    assert torch.equal(out.long().reshape(golden.shape), golden)


@pytest.mark.parametrize("dtype", [ttnn.bfloat16, ttnn.float32])
@pytest.mark.parametrize("shape, dim", [((2, 3, 33, 33), 1), ((1, 32, 129), -1), ((4, 64, 64), 0)])
def test_cumsum(device, dtype, shape, dim):
    torch.manual_seed(2)
    x = torch.randint(-2, 3, shape).float()
    out = ttnn.to_torch(ttnn.cumsum(_device_tensor(x, device, dtype), dim)).float()
    assert torch.equal(out, torch.cumsum(x, dim))


@pytest.mark.parametrize("num_groups, channels", [(8, 64), (32, 320)])
def test_group_norm_channels_last(device, num_groups, channels):
    torch.manual_seed(3)
    n, h, w = 1, 8, 8
    x = torch.randn(n, channels, h, w)
    weight, bias = torch.rand(channels), torch.rand(channels)
    golden = torch.nn.functional.group_norm(x, num_groups, weight, bias, eps=1e-5)
    flat = x.permute(0, 2, 3, 1).reshape(n, 1, h * w, channels)  # tt-metal's [N, 1, H*W, C]
    out = ttnn.group_norm(_device_tensor(flat, device), num_groups=num_groups, epsilon=1e-5,
                          weight=_device_tensor(weight, device, layout=ttnn.ROW_MAJOR_LAYOUT),
                          bias=_device_tensor(bias, device, layout=ttnn.ROW_MAJOR_LAYOUT))
    result = ttnn.to_torch(out).float().reshape(n, h, w, channels).permute(0, 3, 1, 2)
    assert_with_pcc(golden, result, 0.999)


@pytest.mark.parametrize("affine", [False, True])
def test_batch_norm_inference(device, affine):
    torch.manual_seed(4)
    x = torch.randn(2, 16, 32, 32)
    mean, var = torch.randn(1, 16, 1, 1), torch.rand(1, 16, 1, 1) + 0.5
    weight, bias = (torch.rand(1, 16, 1, 1), torch.rand(1, 16, 1, 1)) if affine else (None, None)
    args = {name: _device_tensor(v, device) for name, v in (("running_mean", mean), ("running_var", var),
                                                            ("weight", weight), ("bias", bias)) if v is not None}
    out = ttnn.to_torch(ttnn.batch_norm(_device_tensor(x, device), eps=1e-5, **args)).float()
    golden = ttnn.get_golden_function(ttnn.batch_norm)(
        x, running_mean=mean.flatten(), running_var=var.flatten(),
        weight=None if weight is None else weight.flatten(), bias=None if bias is None else bias.flatten())
    assert_with_pcc(golden, out, 0.999)


@pytest.mark.parametrize("layout", [ttnn.TILE_LAYOUT, ttnn.ROW_MAJOR_LAYOUT])
def test_repeat_interleave_split_chunk(device, layout):
    x = torch.rand(1, 3, 32, 64, dtype=torch.bfloat16)
    t = _device_tensor(x, device, layout=layout)
    assert torch.equal(ttnn.to_torch(ttnn.repeat_interleave(t, 3, dim=1)), torch.repeat_interleave(x, 3, dim=1))
    for got, want in zip(ttnn.split(t, 24, dim=3), torch.split(x, 24, dim=3)):
        assert torch.equal(ttnn.to_torch(got), want)
    pieces = ttnn.chunk(t, 3, dim=1)
    assert len(pieces) == 3 and all(torch.equal(ttnn.to_torch(p), w) for p, w in zip(pieces, torch.chunk(x, 3, 1)))


def test_embedding_looks_up_rows(device):
    torch.manual_seed(5)
    weights = torch.randn(100, 64, dtype=torch.bfloat16)
    ids = torch.randint(0, 100, (2, 32))
    out = ttnn.embedding(ttnn.from_torch(ids, dtype=ttnn.uint32, device=device),
                         _device_tensor(weights, device, layout=ttnn.ROW_MAJOR_LAYOUT))
    assert torch.equal(ttnn.to_torch(out), torch.nn.functional.embedding(ids, weights))


@pytest.mark.parametrize("shape", [(1, 1, 30, 32), (3, 1, 45, 70)])
def test_tilize_padding_variants(device, shape):
    x = (torch.rand(shape) * 200 - 100).to(torch.bfloat16)
    rm = _device_tensor(x, device, layout=ttnn.ROW_MAJOR_LAYOUT)
    padded = [*shape[:-2], -(-shape[-2] // 32) * 32, -(-shape[-1] // 32) * 32]
    zero = ttnn.tilize_with_zero_padding(rm)
    assert list(zero.shape) == padded and zero.layout == ttnn.TILE_LAYOUT
    golden = torch.zeros(padded, dtype=torch.bfloat16)
    golden[..., :shape[-2], :shape[-1]] = x
    assert torch.equal(ttnn.to_torch(zero), golden)
    filled = ttnn.tilize_with_val_padding(rm, padded, 7.0)
    golden[..., shape[-2]:, :] = 7.0
    golden[..., :, shape[-1]:] = 7.0
    assert torch.equal(ttnn.to_torch(filled), golden)
    back = ttnn.untilize_with_unpadding(filled, [d - 1 for d in shape])
    assert back.layout == ttnn.ROW_MAJOR_LAYOUT and torch.equal(ttnn.to_torch(back), x)


@pytest.mark.parametrize("op", ["scale_mask_softmax_in_place", "scale_mask_softmax", "layer_norm"])
def test_fused_ops_leave_no_intermediate_allocated(device, op):
    """A fused op's steps (scale, mask, residual add) have no buffers of their own on the card: repeated calls on
    an L1-sharded input hold only what they return."""
    x = torch.rand(2, 4, 128, 128)
    config = ttnn.create_sharded_memory_config(x.shape, core_grid=ttnn.CoreGrid(y=2, x=4),
                                               strategy=ttnn.ShardStrategy.HEIGHT)
    t = ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device, memory_config=config)
    mask = _device_tensor(torch.zeros(2, 1, 1, 128), device)
    run = {"scale_mask_softmax_in_place": lambda: ttnn.scale_mask_softmax_in_place(t, 0.5, mask),
           "scale_mask_softmax": lambda: ttnn.deallocate(ttnn.scale_mask_softmax(t, 0.5, mask)),
           "layer_norm": lambda: ttnn.deallocate(ttnn.layer_norm(t, residual_input_tensor=t,
                                                                 memory_config=ttnn.DRAM_MEMORY_CONFIG))}[op]
    before = device.mesh.allocated_bytes()
    for _ in range(3):
        run()
    assert device.mesh.allocated_bytes() == before
