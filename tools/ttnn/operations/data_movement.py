"""Data movement with tt-metal's signatures: permute, transpose, concat, stack, pad, slice (with steps, and
`tensor[...]`), repeat, repeat_interleave, split, chunk, embedding, each the TTNN op the simulator runs."""

from __future__ import annotations

import torch

from ttnn.operations.table import call
from ttnn.tensor import Tensor


def permute(input_tensor: Tensor, dims, *, memory_config=None, pad_value: float = 0.0, **compiler) -> Tensor:
    rank = len(input_tensor.shape)
    if len(dims) != rank:
        raise RuntimeError("The number of dimensions in the tensor input does not match the length of the desired "
                           "ordering")
    kwargs = {"permutation": [d % rank for d in dims], "pad_value": float(pad_value), "memory_config": memory_config}
    kwargs.update(compiler)
    return call("permute", input_tensor, **kwargs)


def transpose(input_tensor: Tensor, dim1: int, dim2: int, *, memory_config=None) -> Tensor:
    return call("transpose", input_tensor, dim0=dim1, dim1=dim2, memory_config=memory_config)


def concat(tensors, dim: int = 0, *, memory_config=None, groups: int = 1) -> Tensor:
    """The tensors joined along `dim`; with `groups`, each is cut into that many equal pieces along `dim` and the
    pieces interleaved (group 0 of every tensor, then group 1, ...), as tt-metal's grouped concat does."""
    tensors = list(tensors)
    if groups != 1:
        pieces = [chunk(t, groups, dim) for t in tensors]
        if any(len(p) != groups for p in pieces):
            raise RuntimeError(f"ttnn.concat(): groups={groups} does not divide every input's dimension {dim}")
        tensors = [p[g] for g in range(groups) for p in pieces]
    return call("concat", tensors, dim=dim, memory_config=memory_config)


def stack(tensors, dim: int) -> Tensor:
    """Tensors of one shape joined along a new dimension `dim`, as torch.stack: each gains a dimension of 1 there
    (a reshape), then they are concatenated along it."""
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("ttnn.stack(): needs at least one tensor")
    shape = list(tensors[0].shape)
    if any(list(t.shape) != shape for t in tensors):
        raise RuntimeError(f"ttnn.stack(): every tensor must have the shape {shape}")
    rank = len(shape) + 1
    if not -rank <= dim < rank:
        raise IndexError(f"ttnn.stack(): dim {dim} is out of range for a rank {rank} result")
    dim %= rank
    grown = shape[:dim] + [1] + shape[dim:]
    return concat([call("reshape", t, shape=grown) for t in tensors], dim)


def pad(input_tensor: Tensor, padding, value: float, *, memory_config=None) -> Tensor:
    """`padding` is one (before, after) pair per dimension, from the first (tt-metal's form)."""
    pairs = [tuple(p) for p in padding]
    pairs = [(0, 0)] * (len(input_tensor.shape) - len(pairs)) + pairs
    return call("pad", input_tensor, padding=[v for p in pairs for v in p], value=float(value),
                memory_config=memory_config)


def slice(input_tensor: Tensor, starts, ends, steps=None, *, memory_config=None) -> Tensor:  # noqa: A001
    steps = list(steps) if steps is not None else [1] * len(starts)
    return call("slice_static", input_tensor, begins=list(starts), ends=list(ends), step=steps,
                memory_config=memory_config)


def getitem(input_tensor: Tensor, index) -> Tensor:
    """`tensor[a:b, ..., c]`: a slice with steps; integer indices keep their dimension, as tt-metal's do."""
    index = index if isinstance(index, tuple) else (index,)
    shape = list(input_tensor.shape)
    if len(index) > len(shape):
        raise IndexError(f"too many indices for a tensor of rank {len(shape)}")
    begins, ends, steps = [0] * len(shape), list(shape), [1] * len(shape)
    for i, item in enumerate(index):
        if isinstance(item, int):
            item = item % shape[i]
            begins[i], ends[i] = item, item + 1
        elif isinstance(item, type(slice)) or hasattr(item, "indices"):
            begins[i], ends[i], steps[i] = item.indices(shape[i])
        else:
            raise TypeError(f"ttnn.Tensor indices are ints and slices, got {type(item).__name__}")
    return call("slice_static", input_tensor, begins=begins, ends=ends, step=steps)


def repeat(input_tensor: Tensor, repetition_vector, *, memory_config=None) -> Tensor:
    return call("repeat", input_tensor, repeat_dims=list(repetition_vector), memory_config=memory_config)


def repeat_interleave(input_tensor: Tensor, repeats: int, dim: int, *, memory_config=None) -> Tensor:
    return call("repeat_interleave", input_tensor, repeats=int(repeats), dim=dim, memory_config=memory_config)


def split(input_tensor: Tensor, split_size, dim: int = 0, *, memory_config=None) -> list[Tensor]:
    """Pieces of `split_size` along `dim` (the last may be smaller), or of the sizes listed."""
    size = input_tensor.shape[dim]
    sizes = [split_size] * (size // split_size) + ([size % split_size] if size % split_size else []) \
        if isinstance(split_size, int) else list(split_size)
    pieces, start = [], 0
    for n in sizes:
        begins = [0] * len(input_tensor.shape)
        ends = list(input_tensor.shape)
        begins[dim], ends[dim] = start, start + n
        pieces.append(call("slice_static", input_tensor, begins=begins, ends=ends, step=[1] * len(ends),
                           memory_config=memory_config))
        start += n
    return pieces


def chunk(input_tensor: Tensor, chunks: int, dim: int = 0) -> list[Tensor]:
    size = input_tensor.shape[dim]
    return split(input_tensor, -(-size // chunks), dim)


def embedding(input_tensor: Tensor, weight: Tensor, *, padding_idx=None, layout=None, dtype=None,
              memory_config=None) -> Tensor:
    if padding_idx is not None:
        raise ValueError("ttnn.embedding(): padding_idx is not supported by the simulated device")
    # the rows keep the table's type unless asked otherwise, as tt-metal's embedding does
    return call("embedding", input_tensor, weight, memory_config=memory_config, layout=layout,
                dtype=dtype or weight.dtype)


def _concat_golden(tensors, dim=0, groups=1, **_):
    if groups == 1:
        return torch.cat(tensors, dim)
    pieces = [torch.chunk(t, groups, dim) for t in tensors]
    return torch.cat([p[g] for g in range(groups) for p in pieces], dim)


FUNCTIONS = {f.__name__: f for f in (permute, transpose, concat, stack, pad, slice, getitem, repeat, repeat_interleave,
                                     split, chunk, embedding)}
GOLDEN = {"permute": lambda x, dims, **_: x.permute(*dims), "transpose": lambda x, a, b, **_: x.transpose(a, b),
          "concat": _concat_golden, "stack": lambda tensors, dim, **_: torch.stack(tensors, dim),
          "repeat": lambda x, r, **_: x.repeat(*r),
          "repeat_interleave": lambda x, repeats, dim, **_: torch.repeat_interleave(x, repeats, dim),
          "embedding": lambda x, w, **_: torch.nn.functional.embedding(x, w),
          "split": lambda x, s, dim=0, **_: torch.split(x, s, dim), "chunk": lambda x, c, dim=0, **_: torch.chunk(x, c, dim)}
