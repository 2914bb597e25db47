"""Moving and converting tensors with tt-metal's signatures: to/from the device, layouts, memory configs, data
types, reshapes and tilize/untilize, each the TTNN layout op the simulator runs."""

from __future__ import annotations

import torch

from ttnn.operations.table import call, construct
from ttnn.tensor import Tensor
from ttnn.types import BufferType, Layout, MemoryConfig, ShardSpec, TensorMemoryLayout, cores_of, padded


def to_device(tensor: Tensor, device, memory_config=None, cq_id: int = 0) -> Tensor:
    if tensor.value.on_device:
        return tensor
    return call("to_device", tensor, device, memory_config=memory_config)


def from_device(tensor: Tensor, blocking: bool = True, cq_id: int = 0) -> Tensor:
    if not tensor.value.on_device:
        return tensor
    return call("from_device", tensor)


def to_layout(tensor: Tensor, layout: Layout, dtype=None, memory_config=None, device=None, **compiler) -> Tensor:
    if device is not None and not tensor.value.on_device:
        tensor = to_device(tensor, device)
    if tensor.layout == layout and dtype in (None, tensor.dtype) and memory_config is None:
        return tensor
    return call("to_layout", tensor, layout=layout, dtype=dtype, memory_config=memory_config, **compiler)


def to_memory_config(tensor: Tensor, memory_config, dtype=None) -> Tensor:
    result = call("to_memory_config", tensor, memory_config=memory_config)
    return typecast(result, dtype) if dtype is not None and dtype != result.dtype else result


def interleaved_to_sharded(input_tensor: Tensor, *spec, output_dtype=None, keep_l1_aligned: bool = False) -> Tensor:
    """An interleaved tensor resharded: `(input, sharded_memory_config[, output_dtype])`, or the config's parts
    `(input, grid, shard_shape, shard_scheme, shard_orientation[, output_dtype])` (in L1)."""
    if not spec:
        raise TypeError("ttnn.interleaved_to_sharded() missing its sharded memory config")
    if isinstance(spec[0], MemoryConfig):
        config, rest = spec[0], spec[1:]
    else:
        if len(spec) < 4:
            raise TypeError("ttnn.interleaved_to_sharded(input, grid, shard_shape, shard_scheme, shard_orientation)")
        grid, shard_shape, scheme, orientation, *rest = spec
        config = MemoryConfig(scheme, BufferType.L1, ShardSpec(cores_of(grid), shard_shape, orientation))
    output_dtype = _one_dtype("interleaved_to_sharded", rest, output_dtype)
    if input_tensor.is_sharded():
        raise RuntimeError("ttnn.interleaved_to_sharded: the input tensor must be interleaved")
    if not config.is_sharded():
        raise RuntimeError("ttnn.interleaved_to_sharded: the memory config must be sharded")
    _check_alignment("interleaved_to_sharded", config, keep_l1_aligned)
    return to_memory_config(input_tensor, config, output_dtype)


def sharded_to_interleaved(input_tensor: Tensor, memory_config=None, output_dtype=None, *,
                           is_l1_aligned: bool = False) -> Tensor:
    """A sharded tensor made interleaved (in DRAM unless `memory_config` says L1)."""
    config = memory_config or MemoryConfig(TensorMemoryLayout.INTERLEAVED, BufferType.DRAM)
    if not input_tensor.is_sharded():
        raise RuntimeError("ttnn.sharded_to_interleaved: the input tensor must be sharded")
    if config.is_sharded():
        raise RuntimeError("ttnn.sharded_to_interleaved: the memory config must be interleaved")
    _check_alignment("sharded_to_interleaved", config, is_l1_aligned)
    return to_memory_config(input_tensor, config, output_dtype)


def _one_dtype(callee: str, rest: tuple, keyword):
    if len(rest) > 1 or (rest and keyword is not None):
        raise TypeError(f"ttnn.{callee}() takes one output dtype")
    return rest[0] if rest else keyword


def _check_alignment(callee: str, config: MemoryConfig, l1_aligned: bool) -> None:
    """Pages of a DRAM buffer are aligned to DRAM's alignment on the card; asking to keep L1's instead changes
    only that padding, which the simulator's allocator does not model. An L1 result is L1-aligned either way."""
    if l1_aligned and config.buffer_type == BufferType.DRAM:
        raise ValueError(f"ttnn.{callee}(): L1-aligned pages in a DRAM buffer are not modelled by the simulated "
                         f"allocator")


def allocate_tensor_on_device(shape, dtype, layout, device, memory_config=None) -> Tensor:
    """A device buffer for a tensor of this shape and type, its values not yet written
    (`ttnn.copy_host_to_device_tensor` fills it)."""
    return call("empty", device=device, shape=list(shape), dtype=dtype, layout=layout, memory_config=memory_config)


def typecast(tensor: Tensor, dtype, memory_config=None) -> Tensor:
    result = call("typecast", tensor, dtype=dtype)
    return to_memory_config(result, memory_config) if memory_config is not None else result


def reshape(tensor: Tensor, shape, memory_config=None) -> Tensor:
    shape = list(shape)
    if -1 in shape:
        known = 1
        for d in shape:
            known *= d if d != -1 else 1
        shape[shape.index(-1)] = tensor.value.volume // max(known, 1)
    return call("reshape", tensor, shape=shape, memory_config=memory_config)


def clone(tensor: Tensor, memory_config=None, dtype=None) -> Tensor:
    """A copy of the tensor in its own buffer (tt-metal's copy op: a typecast to the same or given type)."""
    return call("typecast", tensor, dtype=dtype or tensor.dtype) if memory_config is None else \
        to_memory_config(tensor, memory_config, dtype)


def deallocate(tensor: Tensor, force: bool = True) -> None:
    tensor.deallocate(force)


def reallocate(tensor: Tensor, memory_config=None) -> Tensor:
    result = to_memory_config(tensor, memory_config or tensor.memory_config())
    tensor.deallocate()
    return result


def tilize(tensor: Tensor, memory_config=None, dtype=None) -> Tensor:
    return to_layout(tensor, Layout.TILE, dtype=dtype, memory_config=memory_config)


def untilize(tensor: Tensor, memory_config=None) -> Tensor:
    return to_layout(tensor, Layout.ROW_MAJOR, memory_config=memory_config)


def tilize_with_zero_padding(tensor: Tensor, memory_config=None, output_dtype=None) -> Tensor:
    """Row-major to tiles, the logical shape padded to whole tiles with zeros (tt-metal returns the padded shape)."""
    return tilize_with_val_padding(tensor, padded(tensor.shape), 0.0, memory_config, output_dtype)


def tilize_with_val_padding(tensor: Tensor, output_tensor_shape, pad_value, memory_config=None, output_dtype=None) -> Tensor:
    pads = []
    for have, want in zip(tensor.shape, output_tensor_shape):
        if want < have:
            raise RuntimeError(f"ttnn.tilize_with_val_padding: the output shape {list(output_tensor_shape)} is "
                               f"smaller than the input's {list(tensor.shape)}")
        pads += [0, want - have]
    grown = call("pad", tensor, padding=pads, value=float(pad_value)) if any(pads) else tensor
    return tilize(grown, memory_config, output_dtype)


def untilize_with_unpadding(tensor: Tensor, output_tensor_end, memory_config=None) -> Tensor:
    """Tiles to row-major, cut to the inclusive end coordinates `output_tensor_end`."""
    rows = untilize(tensor, memory_config)
    ends = [int(e) + 1 for e in output_tensor_end]
    if ends == list(rows.shape):
        return rows
    return call("slice_static", rows, begins=[0] * len(ends), ends=ends, step=[1] * len(ends))


def fill_implicit_tile_padding(tensor: Tensor, fill_value, memory_config=None) -> Tensor:
    """The tensor with the padding of its tiles set to `fill_value`. The simulated kernels compute on the logical
    values only (padding never reaches a result), so the values are the input's, in a new buffer."""
    return clone(tensor, memory_config)


def pearson_correlation_coefficient(expected, actual) -> float:
    """The Pearson correlation of two tensors' values (torch or ttnn), 1.0 when they are equal."""
    expected = expected if isinstance(expected, torch.Tensor) else expected.to_torch()
    actual = actual if isinstance(actual, torch.Tensor) else actual.to_torch()
    a, b = expected.double().flatten(), actual.double().flatten()
    if a.shape != b.shape:
        raise ValueError(f"pearson_correlation_coefficient: {list(expected.shape)} vs {list(actual.shape)}")
    if torch.equal(a, b):
        return 1.0
    finite = torch.isfinite(a) & torch.isfinite(b)
    a, b = a[finite], b[finite]
    if a.numel() < 2 or a.std() == 0 or b.std() == 0:
        return 1.0 if torch.allclose(a, b) else 0.0
    return float(torch.corrcoef(torch.stack([a, b]))[0, 1])


def constant(device, value, dtype, layout, memory_config, shape) -> Tensor:
    return construct("constant", (device,), {"value": value, "dtype": dtype, "layout": layout,
                                             "memory_config": memory_config}, list(shape))


FUNCTIONS = {f.__name__: f for f in (to_device, from_device, to_layout, to_memory_config, interleaved_to_sharded,
                                     sharded_to_interleaved, allocate_tensor_on_device, typecast, reshape, clone,
                                     deallocate, reallocate, tilize, untilize, tilize_with_zero_padding,
                                     tilize_with_val_padding, untilize_with_unpadding, fill_implicit_tile_padding,
                                     pearson_correlation_coefficient)}
GOLDEN = {"reshape": lambda x, shape, **_: x.reshape(shape), "clone": lambda x, *a, **_: x.clone(),
          "typecast": lambda x, dtype=None, **_: x}
