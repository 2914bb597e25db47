"""Golden functions for every TTIR op: what each op computes, in torch, on the op's own terms.

`GOLDEN_MAPPINGS` maps a TTIR op name to a function `(x, a) -> tensor | tuple` of the op's inputs by
operand name (`x["lhs"]`; a list for variadic operands, None for an absent optional one) and its
properties as Python values (`a["dim_arg"]`). Ops work in TTIR's layouts (NHWC convolutions,
unflattened pools), independently of how the pipeline lowers them, so comparing a run with these
goldens checks the lowering too. Elementwise ops and reductions have their own formulas here, keyed by
their TTIR names, independent of the simulator's kernels (a wrong kernel must fail a golden check).

A golden value is a `GoldenMap`: one tensor per device of the mesh (`{0: t}` on one chip). Ordinary
ops run per device; `mesh_shard` and the collectives (`MESH_GOLDENS`) move data between devices.
"""

from __future__ import annotations

import math
import string
from typing import Callable

import torch
import torch.nn.functional as F
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

from ttmlir.ir.op_table import BINARY_NAMES, TTIR_OPS, UNARY_NAMES
from ttmlir.ir.props import dense_values, int_values, scalar
from ttmlir.dialects.ttnn import TTNN_ONLY_NAMES
from ttmlir.runtime.kernels import sampling_draws
from golden.attention import adamw, chunked_sdpa, decode_golden, indexer_score_dsa, sdpa_bw, sdpa_fw, sdpa_golden
from golden.mesh import DEBUG_GOLDENS, MESH_GOLDENS
from golden.nn import (batch_norm, conv1d, conv2d, conv3d, conv_transpose2d, group_norm, layer_norm, max_pool2d_with_indices,
                       pool2d, rms_norm, upsample2d)
from golden.values import Golden, GoldenMap
from golden.quant import dequantize, quantize, requantize


ARRAY_KINDS = {"i32_array", "i32_darray", "i64_darray", "i32_or_darray", "si32_or_darray"}


def attributes(op) -> dict:
    """An op's properties (table defaults filled in) as Python values: ints, lists, strings, enums by name."""
    values = {}
    for name, kind, _, _ in op.ROW.props:
        attr = op.prop(name)
        if attr is None:
            values[name] = None
        elif kind in ARRAY_KINDS:
            values[name] = int_values(attr)
        elif kind == "pairs":  # rows: (source, target) pairs, replica groups
            flat, shape = [int(v) for v in dense_values(attr)], attr.type.get_shape()
            values[name] = [flat[i:i + shape[-1]] for i in range(0, len(flat), shape[-1])] if shape[-1] else []
        elif kind == "flattened_compat":
            values[name] = attr.data
        elif kind in ("shard_type", "shard_direction", "reduce_type"):
            values[name] = attr.data.value if hasattr(attr.data, "value") else str(attr.data)
        else:
            values[name] = scalar(attr)
    return values


def _dims(a: dict, rank: int) -> list[int]:
    """TTIR's `dim_arg` list, TTNN's single `dim` (argmax) or `dim_arg` (prod); all dimensions when absent."""
    dims = a.get("dim_arg", a.get("dim"))
    dims = range(rank) if dims is None else [dims] if isinstance(dims, int) else dims
    return sorted({d % rank for d in dims}) if rank else []


def _reduction(fn) -> Golden:
    def golden(x, a):
        dims = _dims(a, x["input"].dim())
        return fn(x["input"], dims, bool(a["keep_dim"])) if dims else x["input"].clone()
    return golden


def _topk(x, a):
    """The k largest (smallest) along `dim`, first occurrence first among equals, in sorted order."""
    order = torch.sort(x["input_tensor"], dim=a["dim"], descending=a["largest"], stable=True)
    return tuple(t.narrow(a["dim"], 0, a["k"]) for t in order)


def _slice(t: torch.Tensor, begins, ends, steps) -> torch.Tensor:
    for dim, (begin, end, step) in enumerate(zip(begins, ends, steps)):
        size = t.shape[dim]
        begin, end = begin + size if begin < 0 else begin, end + size if end < 0 else end
        index = torch.arange(begin, end, step) if step > 0 else torch.arange(begin, end, step).clamp(min=0)
        t = t.index_select(dim, index[(index >= 0) & (index < size)])
    return t


def _slice_dynamic(x, a):
    begins, ends = ([int(v) for v in x[name].reshape(-1).tolist()] for name in ("begins", "ends"))
    return _slice(x["input"], begins, ends, a["step"] or [1] * len(begins))


def _scatter(x, a):
    """Every source element goes to its own position with the index's value along `dim` (torch.scatter's
    rule), written there or reduced with what is there."""
    data, index, source, dim = x["input"].clone(), x["index"].long(), x["source"].to(x["input"].dtype), a["dim"]
    where = list(torch.meshgrid(*(torch.arange(n) for n in index.shape), indexing="ij"))
    where[dim % data.dim()] = index
    reduce = a["scatter_reduce_type"]
    if reduce in ("invalid", "sum"):
        return data.index_put_(tuple(where), source, accumulate=reduce == "sum")
    flat = torch.stack([w.reshape(-1) for w in where])
    for position, value in zip(flat.t().tolist(), source.reshape(-1).tolist()):
        data[tuple(position)] = {"prod": data[tuple(position)] * value, "max": max(data[tuple(position)], value),
                                 "min": min(data[tuple(position)], value)}[reduce]
    return data


def _embedding_backward(x, a):
    """The weight's gradient: each index's gradient row added into that row of a zero table."""
    weight, gradient = x["weight"], x["in_gradient"]
    rows = gradient.reshape(-1, weight.shape[-1])[:x["input"].numel()]
    return torch.zeros(weight.shape, dtype=rows.dtype).index_add_(0, x["input"].reshape(-1).long(), rows)


def _bitcast_convert(x, a):
    """The input's bit patterns (IEEE for floats, bf16 the top half of an f32's) read as the result type."""
    import numpy as np

    source, target = str(a["input_type"]), str(a["result_type"])
    value = x["input"]
    if source == "bf16":
        bits = value.float().numpy().view(np.uint32) >> 16
    elif source.startswith("f"):
        bits = value.numpy().astype(f"float{source[1:]}").view(f"uint{source[1:]}")
    else:
        width = int(source.lstrip("usi"))
        bits = value.numpy().astype(np.int64) & ((1 << width) - 1)
    if target == "bf16":
        return torch.from_numpy((bits.astype(np.uint32) << 16).view(np.float32).copy()).bfloat16()
    if target.startswith("f"):
        return torch.from_numpy(bits.astype(f"uint{target[1:]}").view(f"float{target[1:]}").copy())
    width = int(target.lstrip("usi"))
    signed = not target.startswith("ui")
    return torch.from_numpy(bits.astype(f"uint{width}").view(f"{'int' if signed else 'uint'}{width}").astype(np.int64))


def _index(x, a):
    t = x["input"]
    begins, ends, steps = [0] * t.dim(), list(t.shape), [1] * t.dim()
    dim = a["dim"] % t.dim()
    begins[dim], ends[dim], steps[dim] = a["begin"], a["end"], a["step"]
    return _slice(t, begins, ends, steps)


def _index_select(x, a):
    """`length` elements from `begin` of every `stride`-sized chunk of `dim` (the whole dim when stride is 0)."""
    t, dim = x["input"], a["dim"] % x["input"].dim()
    stride = a["stride"] or t.shape[dim]
    keep = [i for i in range(t.shape[dim]) if a["begin"] <= i % stride < a["begin"] + a["length"]]
    return t.index_select(dim, torch.tensor(keep, dtype=torch.long))


def _pad(x, a):
    pairs = [a["padding"][i:i + 2] for i in range(0, len(a["padding"]), 2)]
    return F.pad(x["input"], [v for low, high in reversed(pairs) for v in (low, high)], value=a["value"])


def _matmul(x, a):
    lhs, rhs = x["a"], x["b"]
    if a["transpose_a"]:
        lhs = lhs.transpose(-1, -2)
    if a["transpose_b"]:
        rhs = rhs.transpose(-1, -2)
    out = torch.matmul(lhs, rhs)
    return out + x["bias"] if x.get("bias") is not None else out


def _dot_general(x, a):
    """Einstein notation: batch dims shared, contract dims summed, free dims of lhs then rhs."""
    lhs, rhs = x["lhs"], x["rhs"]
    letters = iter(string.ascii_letters)
    left = [next(letters) for _ in range(lhs.dim())]
    right = [next(letters) for _ in range(rhs.dim())]
    for dl, dr in [*zip(a["batch_dims_lhs"], a["batch_dims_rhs"]), *zip(a["contract_dims_lhs"],
                                                                        a["contract_dims_rhs"])]:
        right[dr] = left[dl]
    batch = [left[d] for d in a["batch_dims_lhs"]]
    shared = set(batch) | {left[d] for d in a["contract_dims_lhs"]}
    out = batch + [c for c in left if c not in shared] + [c for c in right if c not in shared]
    return torch.einsum(f"{''.join(left)},{''.join(right)}->{''.join(out)}", lhs, rhs)


def _sparse_matmul(x, a):
    """Dense products of every block, then the masked-off (token group, expert) blocks zeroed."""
    lhs, blocks, keep = x["a"], x["b"][0], (x["sparsity"] != 0).to(x["a"].dtype)
    if a["is_input_b_sparse"] and not a["is_input_a_sparse"]:
        y = lhs[:, :, None] @ blocks[None, None]  # [A, B, E, M, N]
        return (y * keep[:, :, 0, :, None, None]).unsqueeze(2)
    y = lhs @ blocks[None]  # [A, E, M, N], block e of a by expert e
    return y * keep.reshape(y.shape[0], y.shape[1], 1, 1)


def _topk_router_gpt(x, a):
    """The router's logits, their k largest as expert ids, and exp-normalized weights of those."""
    logits = torch.addmm(x["bias"], x["input"], x["weight"])
    top = torch.topk(logits, a["k"], dim=-1)
    weights = torch.exp(top.values - top.values[:, :1])
    return top.indices, weights / weights.sum(-1, keepdim=True)


def _sampling(x, a):
    """User by user, in float64 lists: the candidates by decreasing softmax(values * temp) (first of equals
    first), the top k (at least one) renormalized, then those until mass p is reached (at least one) renormalized, and the first
    whose running total passes the user's draw."""
    draws, out = sampling_draws(a["seed"], x["input_values"].shape[0]), []
    for user, (row, ids) in enumerate(zip(x["input_values"].double().tolist(), x["input_indices"].tolist())):
        scale = float(x["temp"][user])
        peak = max(v * scale for v in row)
        weights = [math.exp(v * scale - peak) for v in row]
        ranked = sorted(range(len(row)), key=lambda i: -weights[i])[:max(int(x["k"][user]), 1)]
        total = sum(weights[i] for i in ranked)
        kept, mass = [], 0.0
        for i in ranked:
            if kept and mass >= float(x["p"][user]):
                break
            kept.append(i)
            mass += weights[i] / total
        running, chosen = 0.0, kept[-1]
        norm = sum(weights[i] for i in kept)
        for i in kept:
            running += weights[i] / norm
            if running > draws[user]:
                chosen = i
                break
        out.append(ids[chosen])
    return torch.tensor(out, dtype=x["input_indices"].dtype)


def _split_qkv(x, a):
    """Heads of [Q | K | V] read by index: head h of a part starting at `offset` is columns offset + h*D .. +D."""
    fused, separate = x["input_tensor"], x.get("kv_input_tensor")
    heads = a["num_heads"]
    kv_heads = a["num_kv_heads"] if a["num_kv_heads"] is not None else heads
    if separate is None:
        size = kv_size = fused.shape[-1] // (heads + 2 * kv_heads)
        parts = [(fused, 0, heads), (fused, heads * size, kv_heads), (fused, (heads + kv_heads) * size, kv_heads)]
    else:
        size, kv_size = fused.shape[-1] // heads, separate.shape[-1] // (2 * kv_heads)
        parts = [(fused, 0, heads), (separate, 0, kv_heads), (separate, kv_heads * kv_size, kv_heads)]
    q, k, v = (torch.stack([t[..., o + h * d:o + (h + 1) * d] for h in range(n)], dim=1)
               for (t, o, n), d in zip(parts, (size, kv_size, kv_size)))
    return q, k.transpose(2, 3) if a["transpose_key"] else k, v


def _unflattened(golden: Golden) -> Golden:
    """A sliding-window golden for an input flattened to (1, 1, N*H*W, C): computed on the (N, H, W, C) it
    stands for, the result flattened back to (1, 1, N*OH*OW, C')."""
    def flattened(x, a):
        if a.get("flattened_compat_info") is None:
            return golden(x, a)
        n, h, w = a["flattened_compat_info"]
        y = golden({**x, "input": x["input"].reshape(n, h, w, -1)}, a)
        flat = [r.reshape(1, 1, -1, r.shape[-1]) for r in (y if isinstance(y, tuple) else (y,))]
        return tuple(flat) if isinstance(y, tuple) else flat[0]
    return flattened


def _constant(x, a):
    value = a["value"]
    if not isinstance(value, DenseIntOrFPElementsAttr):
        raise ValueError("only dense constant values have a golden")
    shape = list(value.type.get_shape())
    values = [float(v) for v in value.get_values()]
    return torch.tensor(values).reshape(shape) if len(values) == math.prod(shape) else torch.full(shape, values[0])


def _arange(x, a):
    shape = a["result_shape"]
    dim = a["arange_dimension"] % len(shape)
    values = torch.arange(a["start"], a["end"], a["step"], dtype=torch.float32)
    view = [1] * len(shape)
    view[dim] = -1
    return values.reshape(view).expand(shape).clone()


def _rand(x, a):
    generator = torch.Generator().manual_seed(int(a["seed"]))
    return torch.rand(a["size"], generator=generator) * (a["high"] - a["low"]) + a["low"]


def _gelu_bw(x, a):
    """d/dx gelu(x) times the incoming gradient, from gelu's formula (exact: Φ(x) + x·φ(x))."""
    grad, v = x["lhs"], x["rhs"]
    if a["approximate"] == "tanh":
        c = math.sqrt(2 / math.pi)
        t = torch.tanh(c * (v + 0.044715 * v ** 3))
        return grad * (0.5 * (1 + t) + 0.5 * v * (1 - t * t) * c * (1 + 3 * 0.044715 * v * v))
    cdf = 0.5 * (1 + torch.erf(v / math.sqrt(2)))
    pdf = torch.exp(-0.5 * v * v) / math.sqrt(2 * math.pi)
    return grad * (cdf + v * pdf)


def _dropout(x, a):
    draws = torch.rand(x["input"].shape, generator=torch.Generator().manual_seed(int(a["seed"])))
    return x["input"] * (draws >= a["prob"]) * a["scale"]


def _update_cache(x, a):
    cache, update, offset = x["cache"].clone(), x["input"], a["batch_offset"]
    position = int(x["update_index"].reshape(-1)[0])
    for user in range(update.shape[2]):  # cache[offset + user, :, position, :] = input[0, :, user, :]
        cache[offset + user, :, position, :] = update[0, :, user, :]
    return cache


def _paged_update_cache(x, a):
    cache, update, positions = x["cache"].clone(), x["input"], x["update_index"].reshape(-1).tolist()
    table, block = x.get("page_table"), x["cache"].shape[2]
    for user, position in enumerate(positions):  # page and row of the user's position, then one row written
        page, row = (int(table[user, position // block]), position % block) if table is not None else (user, position)
        cache[page, :, row, :] = update[0, user, :, :]
    return cache


def _fill_cache(x, a):
    cache, update, offset = x["cache"].clone(), x["input"], a["batch_offset"]
    users, length = update.shape[0], update.shape[2]
    padded = min(math.ceil(length / 32) * 32, cache.shape[2])  # the device writes whole 32-row tiles
    cache[offset:offset + users, :, :padded, :] = 0
    cache[offset:offset + users, :, :length, :] = update
    return cache


def _paged_fill_cache(x, a):
    cache, update, table = x["cache"].clone(), x["input"], x["page_table"]
    block, length = cache.shape[2], update.shape[2]
    rows = x["batch_idx_tensor"].reshape(-1).tolist() if x.get("batch_idx_tensor") is not None else [0]
    written = min(math.ceil(length / 32) * 32, table.shape[1] * block)  # whole 32-row tiles, zero past the prompt
    for b, row in enumerate(rows):
        for position in range(written):
            value = update[b, :, position, :] if position < length else 0
            cache[int(table[int(row), position // block]), :, position % block, :] = value
    return cache


def _gather(x, a):
    if a["dim"] is not None:  # torch.gather's form: out[i][j] = input[index[i][j]][j] along dim
        return x["input"].take_along_dim(x["start_indices"].long(), a["dim"])
    return _stablehlo_gather(x["input"], x["start_indices"].long(), a)


def _stablehlo_gather(operand: torch.Tensor, indices: torch.Tensor, a: dict) -> torch.Tensor:
    """StableHLO's gather element by element, as its spec defines it (written apart from the simulator's kernel,
    which slices per index vector): every result index is split into its batch and offset parts, and the operand
    index it reads is the clamped start (start_index_map), the batch index on the operand's batching dims and the
    offset on the remaining dims, added up."""
    offset_dims, sizes = list(a["offset_dims"] or []), list(a["slice_sizes"])
    operand_batching = list(a["operand_batching_dims"] or [])
    start_batching = list(a["start_indices_batching_dims"] or [])
    vector_dim = a["index_vector_dim"]
    dropped = set(a["collapsed_slice_dims"] or []) | set(operand_batching)
    offset_operand_dims = [d for d in range(operand.dim()) if d not in dropped]
    batch_shape = [n for d, n in enumerate(indices.shape) if d != vector_dim]
    rank = len(batch_shape) + len(offset_dims)
    batch_dims = [d for d in range(rank) if d not in offset_dims]
    shape = [0] * rank
    for d, n in zip(batch_dims, batch_shape):
        shape[d] = n
    for d, operand_dim in zip(offset_dims, offset_operand_dims):
        shape[d] = sizes[operand_dim]
    grid = torch.meshgrid(*[torch.arange(n) for n in shape], indexing="ij") if shape else ()
    batch_index = [grid[d] for d in batch_dims]

    def start_component(k: int) -> torch.Tensor:
        position = list(batch_index)
        if vector_dim < indices.dim():
            position.insert(vector_dim, torch.full(shape, k, dtype=torch.long))
        return indices[tuple(position)] if position else indices.reshape(-1)[k]

    full = [torch.zeros(shape, dtype=torch.long) for _ in range(operand.dim())]
    for k, d in enumerate(a["start_index_map"]):
        full[d] = full[d] + start_component(k).clamp(0, operand.shape[d] - sizes[d])
    for d, d_start in zip(operand_batching, start_batching):
        full[d] = full[d] + batch_index[d_start if d_start < vector_dim else d_start - 1]
    for d, operand_dim in zip(offset_dims, offset_operand_dims):
        full[operand_dim] = full[operand_dim] + grid[d]
    return operand[tuple(full)]


def _flag(t: torch.Tensor) -> torch.Tensor:
    return t.to(torch.float32)


def _long(fn) -> Callable:
    return lambda a, b: fn(a.to(torch.int64), b.to(torch.int64))


def _pattern(a: torch.Tensor) -> torch.Tensor:
    """An integer tensor's elements as their bit patterns (non-negative), for a logical shift."""
    return a.to(torch.int64) & ((1 << (32 if a.dtype.is_floating_point else 8 * a.dtype.itemsize)) - 1)


# TTIR's elementwise ops by their TTIR names, written here on their own (not the simulator's kernels), so a
# lowering to the wrong TTNN op or a wrong kernel fails the golden check.
UNARY_GOLDENS = {
    "abs": torch.abs, "cbrt": lambda a: a.sign() * a.abs() ** (1 / 3), "ceil": torch.ceil, "cos": torch.cos,
    "acos": torch.acos, "floor": torch.floor, "frac": lambda a: a - a.trunc(), "trunc": torch.trunc,
    "gelu": lambda a: 0.5 * a * (1 + torch.erf(a / math.sqrt(2))), "isfinite": lambda a: _flag(a.isfinite()),
    "logical_not": lambda a: _flag(a == 0), "bitwise_not": lambda a: ~a.to(torch.int64),
    "mish": lambda a: a * torch.tanh(F.softplus(a)), "neg": lambda a: -a, "tan": torch.tan, "atan": torch.atan,
    "tanh": torch.tanh, "reciprocal": lambda a: 1 / a, "relu": lambda a: a.clamp(min=0),
    "relu6": lambda a: a.clamp(0, 6), "rsqrt": lambda a: 1 / a.sqrt(), "sigmoid": lambda a: 1 / (1 + torch.exp(-a)),
    "softsign": lambda a: a / (1 + a.abs()), "hardsigmoid": lambda a: (a / 6 + 0.5).clamp(0, 1),
    "silu": lambda a: a / (1 + torch.exp(-a)), "sign": torch.sign, "signbit": lambda a: _flag(a.signbit()),
    "sin": torch.sin, "asin": torch.asin, "asinh": torch.asinh, "sqrt": torch.sqrt, "square": lambda a: a * a,
    "log": torch.log, "log1p": torch.log1p, "expm1": torch.expm1, "exp": torch.exp, "exp2": lambda a: 2 ** a,
    "erf": torch.erf, "erfc": lambda a: 1 - torch.erf(a),
}
BINARY_GOLDENS = {
    "add": lambda a, b: a + b, "subtract": lambda a, b: a - b, "multiply": lambda a, b: a * b,
    "div": lambda a, b: a / b, "maximum": torch.maximum, "minimum": torch.minimum,
    "remainder": lambda a, b: a - b * torch.floor(a / b), "pow": lambda a, b: a ** b, "atan2": torch.atan2,
    "eq": lambda a, b: _flag(a == b), "ne": lambda a, b: _flag(a != b), "ge": lambda a, b: _flag(a >= b),
    "gt": lambda a, b: _flag(a > b), "le": lambda a, b: _flag(a <= b), "lt": lambda a, b: _flag(a < b),
    "logical_and": lambda a, b: _flag((a != 0) & (b != 0)), "logical_or": lambda a, b: _flag((a != 0) | (b != 0)),
    "logical_xor": lambda a, b: _flag((a != 0) ^ (b != 0)), "bitwise_and": _long(lambda a, b: a & b),
    "bitwise_or": _long(lambda a, b: a | b), "bitwise_xor": _long(lambda a, b: a ^ b),
    "logical_left_shift": _long(lambda a, b: a << b), "logical_right_shift": lambda a, b: _pattern(a) >> b.to(torch.int64),
    "right_shift": _long(lambda a, b: a >> b),
}


def _each_dim(fn) -> Callable:
    def reduce(t, dims, keep):
        for d in sorted(dims, reverse=True):
            t = fn(t, d, keep)
        return t
    return reduce


REDUCTION_GOLDENS = {
    "sum": lambda t, d, k: t.sum(d, keepdim=k), "mean": lambda t, d, k: t.float().mean(d, keepdim=k),
    "max": lambda t, d, k: t.amax(d, keepdim=k), "min": lambda t, d, k: t.amin(d, keepdim=k),
    "prod": _each_dim(lambda t, d, k: t.prod(d, keepdim=k)),
    "reduce_and": _each_dim(lambda t, d, k: _flag((t != 0).all(d, keepdim=k))),
    "reduce_or": _each_dim(lambda t, d, k: _flag((t != 0).any(d, keepdim=k))),
    "argmax": lambda t, d, k: _argmax(t, d, k),
}


def _argmax(t: torch.Tensor, dims: list[int], keep: bool) -> torch.Tensor:
    """The flat index, within the reduced dimensions, of the first maximum."""
    kept = [i for i in range(t.dim()) if i not in dims]
    moved = t.permute(kept + dims).reshape([t.shape[i] for i in kept] + [-1])
    index = moved.argmax(-1)
    return index.reshape([1 if i in dims else t.shape[i] for i in range(t.dim())]) if keep else index


GOLDEN_MAPPINGS: dict[str, Golden] = {
    **{name: (lambda fn: lambda x, a: fn(x["input"]))(UNARY_GOLDENS[name]) for name in UNARY_NAMES},
    **{name: (lambda fn: lambda x, a: fn(x["lhs"], x["rhs"]))(BINARY_GOLDENS[name])
       for name in (*BINARY_NAMES, "right_shift")},
    **{name: _reduction(fn) for name, fn in REDUCTION_GOLDENS.items()},
    "leaky_relu": lambda x, a: F.leaky_relu(x["input"], a["parameter"]),
    "selu": lambda x, a: a["scale"] * torch.where(x["input"] > 0, x["input"], a["alpha"] * torch.expm1(x["input"])),
    "typecast": lambda x, a: x["input"],
    "where": lambda x, a: torch.where(x["first"] != 0, x["second"], x["third"]),
    "clamp_scalar": lambda x, a: torch.clamp(x["input"], a["min"], a["max"]),
    "clamp_tensor": lambda x, a: torch.minimum(torch.maximum(x["input"], x["min"]), x["max"]),
    "cumsum": lambda x, a: torch.cumsum(x["input"], a["dim"]),
    "cumprod": lambda x, a: torch.cumprod(x["input"], a["dim"]),
    "sort": lambda x, a: tuple(torch.sort(x["input"], dim=a["dim"], descending=a["descending"], stable=True)),
    "topk": _topk,
    "reshape": lambda x, a: x["input"].reshape(a["shape"]),
    "transpose": lambda x, a: x["input"].transpose(a["dim0"], a["dim1"]),
    "permute": lambda x, a: x["input"].permute(a["permutation"]),
    "concat": lambda x, a: torch.cat(x["inputs"], a["dim"]),
    "repeat": lambda x, a: x["input"].repeat(a["repeat_dimensions"]),
    "repeat_interleave": lambda x, a: torch.repeat_interleave(x["input"], a["repeats"], a["dim"]),
    "broadcast": lambda x, a: x["input"].repeat(a["broadcast_dimensions"]),
    "pad": _pad,
    "slice_static": lambda x, a: _slice(x["input"], a["begins"], a["ends"], a["step"]),
    "slice_dynamic": _slice_dynamic,
    "scatter": _scatter,
    "embedding_backward": _embedding_backward,
    "bitcast_convert": _bitcast_convert,
    "squeeze": lambda x, a: x["input"].squeeze(a["dim"]),
    "unsqueeze": lambda x, a: x["input"].unsqueeze(a["dim"]),
    "reverse": lambda x, a: torch.flip(x["input"], a["dimensions"]),
    "index": _index,
    "index_select": _index_select,
    "gather": _gather,
    "matmul": _matmul,
    "linear": _matmul,
    "dot_general": _dot_general,
    "softmax": lambda x, a: torch.softmax(x["input"], a["dimension"]),
    "embedding": lambda x, a: F.embedding(x["input"].long(), x["weight"].reshape(-1, x["weight"].shape[-1])),
    "conv2d": _unflattened(conv2d),
    "conv_transpose2d": _unflattened(conv_transpose2d),
    "conv3d": conv3d,
    "conv1d": conv1d,
    "sparse_matmul": _sparse_matmul,
    "topk_router_gpt": _topk_router_gpt,
    "sampling": _sampling,
    "max_pool2d": _unflattened(pool2d("max")),
    "avg_pool2d": _unflattened(pool2d("avg")),
    "max_pool2d_with_indices": _unflattened(max_pool2d_with_indices),
    "global_avg_pool2d": lambda x, a: x["input"].mean((1, 2), keepdim=True),
    "concatenate_heads": lambda x, a: torch.cat(x["input"].unbind(1), dim=-1),
    "scaled_dot_product_attention": sdpa_golden(scaled_sink=False),
    **dict.fromkeys(("scaled_dot_product_attention_decode", "paged_scaled_dot_product_attention_decode",
                     "paged_flash_multi_latent_attention_decode"), decode_golden(scaled_sink=False)),
    "chunked_scaled_dot_product_attention": chunked_sdpa,
    "adamw": adamw, "sdpa_fw": sdpa_fw, "sdpa_bw": sdpa_bw,
    "split_query_key_value_and_split_heads": _split_qkv,
    "upsample2d": upsample2d,
    "batch_norm_inference": batch_norm,
    "batch_norm_training": batch_norm,
    "layer_norm": layer_norm,
    "rms_norm": rms_norm,
    "group_norm": group_norm,
    "constant": _constant,
    "full": lambda x, a: torch.full(a["shape"], float(a["fill_value"])),
    "zeros": lambda x, a: torch.zeros(a["shape"]),
    "ones": lambda x, a: torch.ones(a["shape"]),
    "arange": _arange,
    "empty": lambda x, a: torch.zeros(a["result_shape"]),
    "rand": _rand,
    "gelu_bw": _gelu_bw,
    "dropout": _dropout,
    "update_cache": _update_cache,
    "paged_update_cache": _paged_update_cache,
    "fill_cache": _fill_cache,
    "paged_fill_cache": _paged_fill_cache,
    "to_layout": lambda x, a: x["input"],
    "get_dimension_size": lambda x, a: torch.tensor([x["operand"].shape[a["dimension"]]], dtype=torch.int32),
    **{name + suffix: golden for name, golden in (("quantize", quantize), ("dequantize", dequantize),
                                                  ("requantize", requantize)) for suffix in ("", "_unrolled")},
}


# Goldens that only move values read float inputs as stored, not widened to f32: exact all the same, and a
# reshape or slice of a large weight is then a view of it, not an f32 copy.
MOVES_VALUES = frozenset({"typecast", "bitcast_convert", "reshape", "concatenate_heads", "split_query_key_value_and_split_heads", "transpose", "permute", "concat", "repeat", "repeat_interleave",
                          "broadcast", "pad", "slice_static", "slice_dynamic", "squeeze", "unsqueeze", "reverse", "index",
                          "index_select", "gather", "embedding", "update_cache", "fill_cache", "paged_fill_cache", "paged_update_cache", "to_layout",
                          "to_memory_config", "to_device", "from_device"})


def _nlp_concat_heads_decode(x, a):
    value, heads = x["input"], a["num_heads"]
    joined = torch.cat([value[:, :, h, :] for h in range(heads)], dim=-1).unsqueeze(1)  # [S, 1, B, heads * D]
    declared = a["result_shape"]  # a module read from text may declare the batch padded to a tile
    if len(declared) != 4 or declared[2] <= joined.shape[2]:
        return joined
    padded = torch.zeros(declared, dtype=joined.dtype)
    padded[:, :, :joined.shape[2], :] = joined
    return padded


def _nlp_create_qkv_heads_decode(x, a):
    rows = x["input"][0, 0]
    if a["slice_size"] is not None:
        start = int(x["batch_offset"].reshape(-1)[0])
        rows = rows[start:start + a["slice_size"]]
    heads = a["num_heads"]
    kv_heads = a["num_kv_heads"] if a["num_kv_heads"] is not None else heads
    d = rows.shape[-1] // (heads + 2 * kv_heads)
    bounds = [0, heads * d, (heads + kv_heads) * d, (heads + 2 * kv_heads) * d]
    return tuple(torch.stack([rows[:, lo + h * d: lo + (h + 1) * d] for h in range((hi - lo) // d)], dim=1)
                 .unsqueeze(0) for lo, hi in zip(bounds, bounds[1:]))


def _rotary_embedding(x, a):
    """Each (first half, second half) pair of head_dim rotated by the position's angle: cos and sin."""
    value, cos, sin = x["input"], x["cos_cache"], x["sin_cache"]
    rows = slice(a["token_index"], a["token_index"] + 1) if a["token_index"] is not None else \
        slice(0, value.shape[-2])
    cos, sin = cos[..., rows, :], sin[..., rows, :]
    half = value.shape[-1] // 2
    first, second = value[..., :half], value[..., half:]
    return torch.cat([first * cos[..., :half] - second * sin[..., :half],
                      second * cos[..., half:] + first * sin[..., half:]], dim=-1)


def _rotary_embedding_llama(x, a):
    """x * cos + x' * sin, where x' is each 32-wide block of head_dim times the transformation matrix."""
    value, trans = x["input"], x["trans_mat"][0, 0]
    blocks = value.unflatten(-1, (-1, trans.shape[0]))
    rotated = torch.einsum("...bi,ij->...bj", blocks, trans).flatten(-2)
    return value * x["cos_cache"] + rotated * x["sin_cache"]


def _norm_stats(x, a, squares_only: bool):
    """Each row's partial sums in float64, at the first column of each tile-wide block of the result."""
    rows = x["input"].double()
    for name in ("residual", "residual_input"):
        if x.get(name) is not None:
            rows = rows + x[name].double()
    sums = [torch.einsum("...i,...i->...", rows, rows)] if squares_only else \
        [rows.sum(-1), torch.einsum("...i,...i->...", rows, rows)]
    out = torch.zeros(*rows.shape[:-1], 32 * len(sums), dtype=torch.float64)
    for block, total in enumerate(sums):
        out[..., 32 * block] = total
    return out.float()


def _layer_norm_post_all_gather(x, a):
    value, stats = x["input"].double(), x["stats"].double()
    blocks = stats.unflatten(-1, (-1, 2, 32))[..., 0]  # [..., chips, (sum, sum of squares)]
    count = value.shape[-1] * blocks.shape[-2]
    mean = blocks[..., 0].sum(-1, keepdim=True) / count
    deviation = (blocks[..., 1].sum(-1, keepdim=True) / count - mean ** 2 + a["epsilon"]).sqrt()
    out = (value - mean) / deviation
    out = out * x["weight"].double() if x.get("weight") is not None else out
    return (out + x["bias"].double() if x.get("bias") is not None else out).float()


def _ttnn_goldens() -> dict[str, Golden]:
    """A TTNN op carried over from a TTIR op computes what that op computes (`divide` is `div`)."""
    goldens = {row.ttnn: GOLDEN_MAPPINGS.get(row.ttnn, GOLDEN_MAPPINGS[row.name]) for row in TTIR_OPS
               if row.ttnn and row.name in GOLDEN_MAPPINGS and row.ttnn not in TTNN_ONLY_NAMES}
    identity = lambda x, a: x["input"]  # noqa: E731 - layout, placement and type changes keep the values
    return {**goldens, **{name: GOLDEN_MAPPINGS[name] for name in ("permute", "cumsum", "cumprod", "sort", "topk", "argmax", "prod")},
            "repeat": lambda x, a: x["input"].repeat(list(a["repeat_dims"].data)),
            "embedding_bw": lambda x, a: _embedding_backward(x, a).reshape(1, 1, *x["weight"].shape),
            # TTNN's attention kernels scale the sink like the scores
            "scaled_dot_product_attention": sdpa_golden(scaled_sink=True),
            "flash_mla_prefill": sdpa_golden(scaled_sink=True), "indexer_score_dsa": indexer_score_dsa,
            **dict.fromkeys(("scaled_dot_product_attention_decode", "paged_scaled_dot_product_attention_decode",
                             "paged_flash_multi_latent_attention_decode"), decode_golden(scaled_sink=True)),
            "chunked_scaled_dot_product_attention": chunked_sdpa,
            "nlp_concat_heads": lambda x, a: torch.cat(x["input"].unbind(1), dim=-1).unsqueeze(1),
            "nlp_concat_heads_decode": _nlp_concat_heads_decode,
            "nlp_create_qkv_heads_decode": _nlp_create_qkv_heads_decode,
            "rotary_embedding": _rotary_embedding, "rotary_embedding_llama": _rotary_embedding_llama,
            **{name: (lambda fn: lambda x, a: fn(x, {**a, "normalized_shape": x["input"].shape[-1:]}))(
                GOLDEN_MAPPINGS[name]) for name in ("layer_norm", "rms_norm")},  # TTNN's: over the last dimension
            "rms_norm_pre_all_gather": lambda x, a: _norm_stats(x, a, squares_only=True),
            "layer_norm_pre_all_gather": lambda x, a: _norm_stats(x, a, squares_only=False),
            "layer_norm_post_all_gather": _layer_norm_post_all_gather,
            **{name: GOLDEN_MAPPINGS[name + "_unrolled"] for name in ("quantize", "dequantize", "requantize")},
            **{name: identity for name in ("typecast", "to_layout", "to_memory_config", "to_device", "from_device",
                                           "assign")}}


TTNN_GOLDENS = _ttnn_goldens()

# moe_gpt's weights come prepacked for tt-metal's DRAM-bank cores and two of its results are its kernel's per-core
# staging buffers, neither laid out by the TTIR (upstream's own golden takes the raw weights from outside the op)
OPAQUE = frozenset({"tt_lang_op", "moe_gpt"})


def evaluate(op, inputs: dict, mesh: tuple[int, int] = (1, 1), extra: dict | None = None) -> list[GoldenMap]:
    """The golden maps of a TTIR op's results from its input maps (by operand name, as `GOLDEN_MAPPINGS`).

    `extra` adds values the op's result type carries (`result_shape` for arange and empty); the element types of
    the first operand and result are `input_type` and `result_type` (a quantized type holds its parameters).
    """
    name = op.ROW.name
    a = {**attributes(op), **(extra or {}), "result_type": op.results[0].type.element_type if op.results else None,
         "input_type": op.operands[0].type.element_type if op.operands else None}
    if name in MESH_GOLDENS:
        return MESH_GOLDENS[name](inputs, a, mesh)
    goldens = {"ttir": GOLDEN_MAPPINGS, "debug": DEBUG_GOLDENS}.get(op.name.split(".")[0], TTNN_GOLDENS)
    if name not in goldens:
        raise ValueError(f"'{op.name}' has no golden")
    devices = range(mesh[0] * mesh[1])
    per_device, computed = [], {}  # devices with the very same inputs (replicated values) share one result
    for d in devices:
        x = {k: _on_device(v, d) for k, v in inputs.items()}
        key = tuple(id(t) for v in x.values() for t in (v if isinstance(v, list) else [v]))
        if key not in computed:
            out = goldens[name](x, a)
            computed[key] = out if isinstance(out, tuple) else (out,)
        per_device.append(computed[key])
    return [{d: per_device[d][i] for d in devices} for i in range(len(per_device[0]))]


def _on_device(value, device: int):
    if value is None:
        return None
    if isinstance(value, list):
        return [v[device] for v in value]
    return value[device]

