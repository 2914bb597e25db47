"""The host's StableHLO ops with regions: reduce, reduce_window, scatter, select_and_scatter, sort and map with any
body the spec allows, and control flow (while, if, case). A region whose ops are all elementwise runs once on whole
tensors (a reduction folds slices through it); any other body runs element by element. `OPS` is the whole table:
these and `VALUE_OPS`."""

from __future__ import annotations

import itertools
import math

import numpy as np
import torch
from xdsl.dialects.func import ReturnOp
from xdsl.ir import Region

from ttmlir.ir.props import dense_values
from ttmlir.runtime import RuntimeFailure
from ttmlir.runtime.host_stablehlo_ops import (BINARY, FLOAT_UNARY, VALUE_OPS, attr_int, attr_ints, elem_of,
                                               pad_interior, positions, shape_of, total_order_key, unsigned_key)

# ---------------------------------------------------------------------------------------------------------------
# Regions


ELEMENTWISE = frozenset({*FLOAT_UNARY, *BINARY, "abs", "negate", "not", "sign", "is_finite", "real", "imag",
                         "complex", "compare", "select", "clamp", "convert", "constant", "return",
                         "count_leading_zeros", "popcnt", "reduce_precision"})


def run_region(region: Region, args: list[torch.Tensor]) -> list[torch.Tensor]:
    """The values a region's block returns for these arguments (its values from above already in `env`)."""
    block = region.block
    env = dict(zip(block.args, args))
    return run_block(block, env)


_OUTER: list[dict] = []  # the values of the enclosing blocks (a region may use them)


def run_block(block, env: dict) -> list[torch.Tensor]:
    scope = {**(_OUTER[-1] if _OUTER else {}), **env}
    _OUTER.append(scope)
    try:
        for op in block.ops:
            if op.name in ("stablehlo.return", "func.return") or isinstance(op, ReturnOp):
                return [scope[v] for v in op.operands]
            impl = OPS.get(op.name)
            if impl is None:
                raise RuntimeFailure(f"the host has no implementation of '{op.name}'")
            out = impl(op, *(scope[v] for v in op.operands))
            out = out if isinstance(out, (list, tuple)) else [out]
            for result, value in zip(op.results, out):
                scope[result] = value
    finally:
        _OUTER.pop()
    raise RuntimeFailure("a region does not return")


def _elementwise_body(region: Region) -> bool:
    return all(o.name.removeprefix("stablehlo.") in ELEMENTWISE for o in region.walk())


def _apply(region: Region, args: list[torch.Tensor]) -> list[torch.Tensor]:
    """The body applied to whole tensors (elementwise bodies) or element by element (any other)."""
    if _elementwise_body(region):
        shape = torch.broadcast_shapes(*(a.shape for a in args))
        return [v.expand(shape) if v.shape != shape else v for v in run_region(region, args)]
    shape = torch.broadcast_shapes(*(a.shape for a in args))
    flat = [a.expand(shape).reshape(-1) for a in args]
    rows = [run_region(region, [f[i].reshape([]) for f in flat]) for i in range(flat[0].numel() if flat else 0)]
    return [torch.stack([r[k] for r in rows]).reshape(shape) for k in range(len(rows[0]))] if rows else []


def _fold(region: Region, acc: list[torch.Tensor], items: list[torch.Tensor]) -> list[torch.Tensor]:
    """acc combined with each slice along the last dimension of items, in order."""
    for i in range(items[0].shape[-1]):
        acc = _apply(region, [*acc, *(x[..., i] for x in items)])
    return acc


def reduce(op, *operands):
    n = len(operands) // 2
    inputs, inits = operands[:n], operands[n:]
    dims = attr_ints(op, "dimensions")
    keep = [d for d in range(inputs[0].dim()) if d not in dims]
    moved = [x.permute(keep + dims).reshape([x.shape[d] for d in keep] + [-1]) for x in inputs]
    acc = [init.expand([x.shape[d] for d in keep]).clone() for init, x in zip(inits, inputs)]
    return _fold(op.regions[0], acc, moved)


def _windows(x: torch.Tensor, window, strides, dilations, out_shape):
    """Each window element's slice of x (one tensor of `out_shape` per position in the window)."""
    for offsets in itertools.product(*(range(w) for w in window)):
        yield offsets, x[tuple(slice(o * dl, o * dl + (n - 1) * s + 1, s)
                               for o, dl, s, n in zip(offsets, dilations, strides, out_shape))]


def _window_attrs(op, rank: int):
    window = attr_ints(op, "window_dimensions")
    strides = attr_ints(op, "window_strides") or [1] * rank
    base = attr_ints(op, "base_dilations") or [1] * rank
    dilations = attr_ints(op, "window_dilations") or [1] * rank
    padding = op.attr("padding")
    pads = [int(v) for v in dense_values(padding)] if padding is not None else [0] * (2 * rank)
    return window, strides, base, dilations, pads[0::2], pads[1::2]


def reduce_window(op, *operands):
    n = len(operands) // 2
    inputs, inits = operands[:n], operands[n:]
    rank = inputs[0].dim()
    window, strides, base, dilations, low, high = _window_attrs(op, rank)
    padded = [pad_interior(x, init, low, high, [b - 1 for b in base]) for x, init in zip(inputs, inits)]
    out_shape = shape_of(op.results[0])
    acc = [init.expand(out_shape).clone() for init in inits]
    slices = [list(_windows(p, window, strides, dilations, out_shape)) for p in padded]
    for k in range(len(slices[0])):
        acc = _apply(op.regions[0], [*acc, *(s[k][1] for s in slices)])
    return acc


def _scatter_into(region: Region, results: list[torch.Tensor], targets: np.ndarray, updates: list[torch.Tensor]):
    """Each update combined into results at its flat target (-1: dropped), by the body; updates meeting the same
    target are applied in order, one round per repetition."""
    flats = [r.reshape(-1).clone() for r in results]
    remaining = np.nonzero(targets >= 0)[0]
    while len(remaining):
        _, first = np.unique(targets[remaining], return_index=True)
        take = remaining[np.sort(first)]
        at = torch.from_numpy(targets[take])
        rows = torch.from_numpy(take)
        combined = _apply(region, [*(f[at] for f in flats), *(u.reshape(-1)[rows] for u in updates)])
        for f, c in zip(flats, combined):
            f[at] = c.to(f.dtype)
        remaining = np.setdiff1d(remaining, take, assume_unique=True)
    return [f.reshape(r.shape) for f, r in zip(flats, results)]


def scatter(op, *operands):
    """The spec's scatter: each update element goes to start + batching + window index of the operand; updates
    outside it are dropped."""
    n = (len(operands) - 1) // 2
    inputs, indices, updates = list(operands[:n]), operands[n], list(operands[n + 1:])
    d = op.attr("scatter_dimension_numbers")
    window_dims, inserted = list(d.update_window_dims), list(d.inserted_window_dims)
    input_batching = list(getattr(d, "input_batching_dims", []) or [])
    indices_batching = list(getattr(d, "scatter_indices_batching_dims", []) or [])
    to_operand, ivd = list(d.scatter_dims_to_operand_dims), d.index_vector_dim
    shape = list(inputs[0].shape)
    idx = indices.to(torch.int64).numpy()
    if ivd == idx.ndim:
        idx = idx[..., None]
    pos = positions(list(updates[0].shape))
    scatter_dims = [i for i in range(updates[0].dim()) if i not in window_dims]
    at_scatter = pos[:, scatter_dims]
    per = np.moveaxis(idx, ivd, -1)
    starts = per[tuple(at_scatter.T)] if at_scatter.shape[1] else \
        np.broadcast_to(per.reshape(-1), (len(pos), per.shape[-1]))
    full = np.zeros((len(pos), len(shape)), dtype=np.int64)
    for i, d_op in enumerate(to_operand):
        full[:, d_op] = starts[:, i]
    for d_op, d_idx in zip(input_batching, indices_batching):
        full[:, d_op] += at_scatter[:, d_idx - (0 if d_idx < ivd else 1)]
    operand_window = [i for i in range(len(shape)) if i not in inserted and i not in input_batching]
    for k, d_op in enumerate(operand_window):
        full[:, d_op] += pos[:, window_dims[k]]
    inside = np.all((full >= 0) & (full < np.array(shape)), axis=1)
    strides = np.array([math.prod(shape[i + 1:]) for i in range(len(shape))], dtype=np.int64)
    targets = np.where(inside, full @ strides, -1)
    return _scatter_into(op.regions[0], inputs, targets, updates)


def select_and_scatter(op, operand, source, init):
    """Each window of the operand selects one element (the select body keeps the current choice or takes the
    next); the source values are scattered onto the chosen elements of a tensor of the initial value."""
    rank = operand.dim()
    window = attr_ints(op, "window_dimensions")
    strides = attr_ints(op, "window_strides") or [1] * rank
    padding = op.attr("padding")
    pads = [int(v) for v in dense_values(padding)] if padding is not None else [0] * (2 * rank)
    low, high = pads[0::2], pads[1::2]
    flat_index = torch.arange(operand.numel(), dtype=torch.int64).reshape(operand.shape)
    padded = pad_interior(operand, torch.zeros((), dtype=operand.dtype), low, high, [0] * rank)
    where = pad_interior(flat_index, torch.tensor(-1), low, high, [0] * rank)
    out_shape = list(source.shape)
    chosen_value, chosen = None, torch.full(out_shape, -1, dtype=torch.int64)
    for (_, values), (_, places) in zip(_windows(padded, window, strides, [1] * rank, out_shape),
                                        _windows(where, window, strides, [1] * rank, out_shape)):
        if chosen_value is None:
            chosen_value = values.clone()
        valid = places >= 0
        keep = _apply(op.regions[0], [chosen_value, values])[0]
        take = valid & ((chosen < 0) | ~keep)
        chosen_value = torch.where(take, values, chosen_value)
        chosen = torch.where(take, places, chosen)
    result = init.reshape([]).expand(operand.shape).clone()
    return _scatter_into(op.regions[1], [result], chosen.reshape(-1).numpy(), [source])


def sort(op, *inputs):
    """A stable sort along `dimension` by the comparator. A comparator that is one comparison of the first
    input's pair sorts by keys; any other ranks each element by how many compare before it."""
    dim = attr_int(op, "dimension", -1) % inputs[0].dim()
    region = op.regions[0]
    moved = [x.movedim(dim, -1) for x in inputs]
    direction = _plain_comparator(region)
    if direction is not None:
        e = elem_of(region.block.args[0].type)
        key = total_order_key(moved[0]) if e.kind == "float" else unsigned_key(moved[0], e)
        order = torch.sort(key, dim=-1, descending=direction in ("GT", "GE"), stable=True).indices
    else:
        n = moved[0].shape[-1]
        pairs = [a for x in moved for a in (x.unsqueeze(-1).expand(*x.shape, n), x.unsqueeze(-2).expand(*x.shape[:-1], n, n))]
        before = _apply(region, pairs)[0]  # before[..., i, j]: element i goes before element j
        ties = ~before & ~before.transpose(-1, -2)
        lower = torch.ones(n, n, dtype=torch.bool).tril(-1)  # j < i
        rank = before.sum(-2) + (ties & lower).sum(-1)
        order = torch.argsort(rank, dim=-1, stable=True)
    return [torch.take_along_dim(x, order, dim=-1).movedim(-1, dim) for x in moved]


def _plain_comparator(region: Region) -> str | None:
    """The direction of a comparator that compares the first input's two elements and nothing else."""
    ops = list(region.block.ops)
    args = region.block.args
    if len(ops) == 2 and ops[0].name == "stablehlo.compare" and list(ops[1].operands) == [ops[0].results[0]]:
        if list(ops[0].operands) == [args[0], args[1]]:
            return ops[0].attr("comparison_direction").data
    return None


def map_(op, *inputs):
    return _apply(op.regions[0], list(inputs))[0]


def while_(op, *values):
    cond, body = op.regions
    values = list(values)
    while bool(run_region(cond, values)[0]):
        values = run_region(body, values)
    return values


def if_(op, pred):
    return run_region(op.regions[0 if bool(pred) else 1], [])


def case(op, index):
    n = len(op.regions)
    i = int(index)
    return run_region(op.regions[i if 0 <= i < n else n - 1], [])  # out of range: the last branch


def optimization_barrier(op, *values):
    return list(values)


# ---------------------------------------------------------------------------------------------------------------
# The whole table


OPS = {
    **VALUE_OPS,
    **{f"stablehlo.{n}": fn for n, fn in {
        "reduce": reduce, "reduce_window": reduce_window, "scatter": scatter,
        "select_and_scatter": select_and_scatter, "sort": sort, "map": map_, "while": while_, "if": if_,
        "case": case, "optimization_barrier": optimization_barrier}.items()},
}
