"""Torch kernels for every TTNN op, keyed by op name.

A kernel takes the op's input tensors by field name (`x["input"]`, `x["lhs"]`, ...; None for an
absent optional operand) and the op's flatbuffer table `t` for its attributes, and returns the output
(or a tuple for several results). Inputs arrive in compute precision (f32 or int64; float inputs of the
kernels in READS_STORED as stored); the executor
stores outputs in the output tensor's data format. Layout ops are the identity: the executor gives
the result the placement, layout and data type its tensor descriptor names.
"""

from __future__ import annotations

import math
import re
from typing import Callable

import torch
import torch.nn.functional as F

from ttmlir.runtime import RuntimeFailure, ccl, numerics
from ttmlir.runtime.numerics import EXACT, Numerics
from ttmlir.target import binary_generated as fb
from ttmlir.target.flatbuffer import enum_names, struct_fields
from ttmlir.spatial import conv_sides, padding4, pair, round_up
from ttmlir.runtime import moe_fused
from ttmlir.runtime.attention_kernels import adamw, chunked_sdpa, indexer_score, sdpa, sdpa_bw, sdpa_decode, sdpa_fw

Kernel = Callable[[dict, object], object]

# Kernels that only move values read float inputs in their stored format: exact, and without an f32 copy of
# a large table (a 131072x2048 bf16 embedding is 512 MB stored, 1 GB in f32).
MOVES_VALUES = frozenset({"assign", "reshape", "concatenate_heads", "split_query_key_value_and_split_heads", "concat", "repeat", "repeat_interleave", "permute", "pad", "slice_static", "slice_dynamic", "bitcast_convert",
                          "reverse", "gather", "embedding", "update_cache", "fill_cache", "paged_fill_cache", "paged_update_cache", "to_layout", "to_device",
                          "from_device", "to_memory_config", "typecast",
                          "adamw"})  # adamw's stochastic rounding needs to know which of its operands are stored in bf16
# ... and so do the matmuls, which convert their weights to f32 a block of columns at a time (numerics.matmul)
READS_STORED = MOVES_VALUES | {"matmul", "linear"}
MeshKernel = Callable[[dict, object, tuple[int, int]], list]
# Kernels whose arithmetic the hardware's numerics change take the op's `numerics.Numerics` as a third argument
# (exact f32 when omitted).
NUMERIC_KERNELS = frozenset({"matmul", "linear", "conv1d", "conv2d", "conv_transpose2d", "conv3d", "softmax", "rotary_embedding",
                             "rotary_embedding_llama"})


def _unary(fn) -> Kernel:
    return lambda x, t: fn(x["input"])


def _binary(fn) -> Kernel:
    return lambda x, t: fn(x["lhs"], x["rhs"])


def _slice_dynamic(x, t):
    """A slice whose bounds are tensors on the device; they must select the result's declared shape."""
    begins, ends = x["begins"].reshape(-1).tolist(), x["ends"].reshape(-1).tolist()
    steps = list(t.step) if t.step is not None else [1] * len(begins)
    result = x["input"][tuple(slice(int(b), int(e), s) for b, e, s in zip(begins, ends, steps))]
    declared = list(t.out.desc.shape)
    if list(result.shape) != declared:
        raise ValueError(f"begins {begins} and ends {ends} select a {list(result.shape)} slice, but the result "
                         f"is {declared}")
    return result


def _scatter(x, t):
    reduce = enum_names(fb.ReduceType)[t.scatterReduceType]
    data, index, source = x["input"], x["index"].long(), x["source"].to(x["input"].dtype)
    if reduce == "invalid":
        return data.scatter(t.dim, index, source)
    return data.scatter_reduce(t.dim, index, source, {"max": "amax", "min": "amin"}.get(reduce, reduce))


def _embedding_bw(x, t):
    """Rows of the gradient summed per index: a one-hot (V, B * N) matrix times the (B * N, C) gradient."""
    weight, gradient = x["weight"], x["in_gradient"].reshape(-1, x["in_gradient"].shape[-1])
    one_hot = F.one_hot(x["input"].reshape(-1).long(), weight.shape[0]).to(gradient.dtype)
    return (one_hot.t() @ gradient).reshape(1, 1, *weight.shape)


# a data type's bits as a signed container of its width, and whether its values are those bits unsigned
BIT_CONTAINERS = {"f32": torch.float32, "si32": torch.int32, "u32": torch.int32, "bf16": torch.bfloat16,
                  "f16": torch.float16, "u16": torch.int16, "u8": torch.uint8}


# the device's unsigned 8/16-bit types, which hold signed values as their bit patterns: the mask of those bits
NARROW_PATTERNS = {"u8": 0xFF, "u16": 0xFFFF}


def _bitcast_convert(x, t):
    source, target = (enum_names(fb.DataType)[ref.desc.layout.dataType] for ref in (t.input, t.out))
    if source == "si32" and target in NARROW_PATTERNS:  # a signed quantized value to its storage integer's bits
        return x["input"].to(torch.int64) & NARROW_PATTERNS[target]
    if source in NARROW_PATTERNS and target == "si32":  # storage bits to the signed quantized value they hold
        sign = (NARROW_PATTERNS[source] + 1) >> 1
        return (x["input"].to(torch.int64) ^ sign) - sign
    bits = x["input"].to(BIT_CONTAINERS[source]).view(BIT_CONTAINERS[target])
    unsigned = {"u32": 0xFFFFFFFF, "u16": 0xFFFF}.get(target)
    return bits if unsigned is None else bits.to(torch.int64) & unsigned


def _nlp_concat_heads_decode(x, t):
    """[S, B, padded heads, D] -> [S, 1, B, heads * D]; batch rows the result pads to a tile stay zero."""
    s, b, _, d = x["input"].shape
    joined = x["input"][:, :, :t.numHeads, :].reshape(s, 1, b, t.numHeads * d)
    rows = int(t.out.desc.shape[2])
    return F.pad(joined, (0, 0, 0, rows - b)) if rows > b else joined


def _nlp_create_qkv_heads_decode(x, t):
    fused = x["input"][0, 0]  # [B, head_dim * (heads + 2 * kv_heads)]
    if t.sliceSize is not None:
        start = int(x["batch_offset"].reshape(-1)[0])
        fused = fused[start:start + t.sliceSize]
    heads = t.numHeads
    kv_heads = t.numKvHeads if t.numKvHeads is not None else heads
    d = fused.shape[-1] // (heads + 2 * kv_heads)
    q, k, v = fused.split([heads * d, kv_heads * d, kv_heads * d], dim=-1)
    return tuple(part.reshape(1, fused.shape[0], -1, d) for part in (q, k, v))


def _rotary_embedding(x, t, num: Numerics = EXACT):
    """x * cos + rotate(x) * sin: rotate_half (rotary_embedding) or x @ trans_mat on each 32-wide block (llama).
    tt-metal's kernel packs each product into a circular buffer of the cos/sin format before the sum, so it rounds
    as the separate multiplies and add would."""
    value, cos, sin = x["input"], x["cos_cache"], x["sin_cache"]
    if x.get("trans_mat") is not None:
        blocks = value.reshape(*value.shape[:-1], -1, x["trans_mat"].shape[-2])
        rotated = (blocks @ x["trans_mat"][0, 0]).reshape(value.shape)
    else:
        if t.tokenIndex is not None:
            cos, sin = cos[..., t.tokenIndex:t.tokenIndex + 1, :], sin[..., t.tokenIndex:t.tokenIndex + 1, :]
        else:
            cos, sin = cos[..., :value.shape[-2], :], sin[..., :value.shape[-2], :]
        half = value.shape[-1] // 2
        rotated = torch.cat([-value[..., half:], value[..., :half]], dim=-1)
    products = (value * cos, rotated * sin)
    formats = (enum_names(fb.DataType)[ref.desc.layout.dataType] for ref in (t.cosCache, t.sinCache))
    packed = (numerics.store(v, dtype, num) for v, dtype in zip(products, formats))
    return sum(v if p is None else p.float() for v, p in zip(products, packed))


def _norm_stats(x, t):
    """Partial sums of each row, in f32: sum(x^2) in column 0 (rms), or sum(x) in 0 and sum(x^2) in 32."""
    residual = x.get("residual") if x.get("residual") is not None else x.get("residual_input")
    value = x["input"] if residual is None else x["input"] + residual
    layer_norm = enum_names(fb.NormStatsOpType)[t.type] == "layer_norm_pre_all_gather"
    sums = [value.sum(-1), (value * value).sum(-1)] if layer_norm else [(value * value).sum(-1)]
    out = torch.zeros(*value.shape[:-1], 32 * len(sums))
    for i, s in enumerate(sums):
        out[..., 32 * i] = s
    return out


def _layer_norm_post_all_gather(x, t):
    """The gathered stats hold each chip's [sum(x) tile, sum(x^2) tile]: mean and variance over the whole row."""
    value, stats = x["input"], x["stats"]
    chips = stats.shape[-1] // 64
    count = value.shape[-1] * chips
    mean = stats[..., 0::64].sum(-1, keepdim=True) / count
    variance = stats[..., 32::64].sum(-1, keepdim=True) / count - mean * mean
    out = (value - mean) * torch.rsqrt(variance + t.epsilon)
    if x.get("weight") is not None:
        out = out * x["weight"]
    return out + x["bias"] if x.get("bias") is not None else out


def _dropout(x: torch.Tensor, prob: float, scale: float, seed: int) -> torch.Tensor:
    """The device's mask: uniform draws from `seed`, an element kept where its draw is at least `prob`."""
    keep = torch.rand(x.shape, generator=torch.Generator().manual_seed(seed)) >= prob
    return torch.where(keep, x * scale, torch.zeros_like(x))


def _as_bool(fn) -> Callable:
    return lambda a, b: fn(a != 0, b != 0).to(torch.float32)


def _shift(a, b, left: bool):
    """A logical shift of each element's bit pattern (32 bits, or its integer dtype's width): a right shift moves
    zeros in, also into a negative value's sign bit."""
    width = 32 if a.dtype.is_floating_point else a.dtype.itemsize * 8
    a, b = a.to(torch.int64) & ((1 << width) - 1), b.to(torch.int64)
    return torch.bitwise_left_shift(a, b) if left else torch.bitwise_right_shift(a, b)


UNARY = {
    "abs": torch.abs, "cbrt": lambda a: torch.sign(a) * torch.abs(a).pow(1 / 3), "ceil": torch.ceil, "cos": torch.cos,
    "acos": torch.acos, "floor": torch.floor, "frac": torch.frac, "trunc": torch.trunc, "gelu": F.gelu,
    "isfinite": lambda a: torch.isfinite(a).float(), "logical_not": lambda a: (a == 0).float(),
    "bitwise_not": lambda a: torch.bitwise_not(a.to(torch.int64)), "mish": F.mish, "neg": torch.neg,
    "tan": torch.tan, "atan": torch.atan, "tanh": torch.tanh, "reciprocal": torch.reciprocal, "relu": torch.relu,
    "relu6": F.relu6, "rsqrt": torch.rsqrt, "sigmoid": torch.sigmoid, "softsign": F.softsign,
    "hardsigmoid": F.hardsigmoid, "silu": F.silu, "sign": torch.sign, "signbit": lambda a: torch.signbit(a).float(),
    "sin": torch.sin, "asin": torch.asin, "asinh": torch.asinh, "sqrt": torch.sqrt, "square": torch.square,
    "log": torch.log, "log1p": torch.log1p, "expm1": torch.expm1, "exp": torch.exp, "exp2": torch.exp2,
    "erf": torch.erf, "erfc": torch.erfc,
}

BINARY = {
    "add": torch.add, "subtract": torch.sub, "multiply": torch.mul, "divide": torch.div, "maximum": torch.maximum,
    "minimum": torch.minimum, "remainder": torch.remainder, "pow_tensor": torch.pow, "atan2": torch.atan2,
    "eq": lambda a, b: (a == b).float(), "ne": lambda a, b: (a != b).float(), "ge": lambda a, b: (a >= b).float(),
    "gt": lambda a, b: (a > b).float(), "le": lambda a, b: (a <= b).float(), "lt": lambda a, b: (a < b).float(),
    "logical_and": _as_bool(torch.logical_and), "logical_or": _as_bool(torch.logical_or),
    "logical_xor": _as_bool(torch.logical_xor),
    "bitwise_and": lambda a, b: torch.bitwise_and(a.long(), b.long()),
    "bitwise_or": lambda a, b: torch.bitwise_or(a.long(), b.long()),
    "bitwise_xor": lambda a, b: torch.bitwise_xor(a.long(), b.long()),
    "logical_left_shift": lambda a, b: _shift(a, b, True), "logical_right_shift": lambda a, b: _shift(a, b, False),
}


def _dims(t, rank: int) -> list[int]:
    """The reduced dimensions: a list (`dim_arg`), one (argmax's `dim`, prod's `dim_arg`), or all when absent."""
    dims = getattr(t, "dimArg", getattr(t, "dim", None))
    dims = list(range(rank)) if dims is None else [dims] if isinstance(dims, int) else list(dims)
    return sorted(d % rank for d in dims) if rank else []


def _reduce(fn) -> Kernel:
    def kernel(x, t):
        a = x["input"]
        dims = _dims(t, a.dim())
        return fn(a, dims, bool(t.keepDim)) if dims else a.clone()
    return kernel


def _reduce_each(fn):
    """Reductions torch offers one dimension at a time."""
    def reduce(a, dims, keep):
        for d in sorted(dims, reverse=True):
            a = fn(a, d, keep)
        return a
    return reduce


REDUCTIONS = {
    "sum": lambda a, d, k: torch.sum(a, d, keepdim=k), "mean": lambda a, d, k: torch.mean(a.float(), d, keepdim=k),
    "max": lambda a, d, k: torch.amax(a, d, keepdim=k), "min": lambda a, d, k: torch.amin(a, d, keepdim=k),
    "prod": _reduce_each(lambda a, d, k: torch.prod(a, d, keepdim=k)),
    "argmax": lambda a, d, k: _argmax(a, d, k),
}


def _argmax(a, dims, keep):
    if len(dims) == 1:
        return torch.argmax(a, dims[0], keepdim=keep)
    moved = a.movedim(dims, list(range(a.dim() - len(dims), a.dim())))
    flat = moved.reshape(*moved.shape[:a.dim() - len(dims)], -1).argmax(-1)
    if keep:
        for d in dims:
            flat = flat.unsqueeze(d)
    return flat


def _nchw(x, t, channels: int) -> torch.Tensor:
    """TTNN's flattened (1, 1, N*H*W, C) input as NCHW."""
    return x.reshape(t.batchSize, t.inputHeight, t.inputWidth, channels).permute(0, 3, 1, 2)


def _flatten_nhwc(y: torch.Tensor) -> torch.Tensor:
    n, c, h, w = y.shape
    return y.permute(0, 2, 3, 1).reshape(1, 1, n * h * w, c)


def _conv2d(x, t, num: Numerics = EXACT):
    a = _nchw(x["input"].float(), t, t.inChannels)
    w, b = x["weight"].float(), x.get("bias")
    groups = t.groups
    kh, kw = pair(t.kernelSize)
    if t.type == 0 and w.shape[:2] == (1, 1) and tuple(w.shape[2:]) != (kh, kw):
        # prepared by prepare_conv2d_weights: (1, 1, kH*kW*C_in, O) rows in (kH, kW, C_in) order, groups dense
        w = w[0, 0, :kh * kw * t.inChannels, :t.outChannels].reshape(kh, kw, t.inChannels, t.outChannels)
        w, groups = w.permute(3, 2, 0, 1), 1
    if b is not None:  # (1, 1, 1, O), or prepared with padding rows
        b = b.reshape(-1, b.shape[-1])[0, :t.outChannels]
    stride, dilation = pair(t.stride), pair(t.dilation)
    top, bottom, left, right = conv_sides(t.padding)
    if t.type == 1:  # ConvTranspose2d: weight is (C_in, C_out/groups, kH, kW); padding is symmetric
        out_pad = pair(t.outputPadding) if t.outputPadding is not None else [0, 0]
        y = numerics.conv(F.conv_transpose2d, a, w, num, stride, (top, left), out_pad, groups, dilation)
    else:
        y = numerics.conv(F.conv2d, F.pad(a, (left, right, top, bottom)), w, num, stride, 0, dilation, groups)
    y = y if b is None else y + b.reshape(1, -1, 1, 1).float()
    # conv2d_config's activation (`<op_type = relu>`) is applied to the result, fused as tt-metal fuses it
    fused = re.search(r"op_type = (\w+)", struct_fields(t.conv2dConfig).get("activation", ""))
    if fused and fused.group(1) not in UNARY:
        raise ValueError(f"conv2d_config activation '{fused.group(1)}' is not a unary op the simulator has")
    return _flatten_nhwc(UNARY[fused.group(1)](y) if fused else y)


def _conv1d(x, t, num: Numerics = EXACT):
    """tt-metal's conv1d: (N, L, C) input (or conv2d's flattened (1, 1, N*L, C)), (O, C/G, K) weight, (1, 1, 1, O)
    bias; the result flattened as conv2d's, (1, 1, N*L_out, O)."""
    a = x["input"].float().reshape(t.batchSize, t.inputLength, t.inChannels).permute(0, 2, 1)
    left, right = t.padding
    y = numerics.conv(F.conv1d, F.pad(a, (left, right)), x["weight"].float(), num, t.stride, 0, t.dilation, t.groups)
    if x.get("bias") is not None:
        y = y + x["bias"].float().reshape(1, -1, 1)
    fused = re.search(r"op_type = (\w+)", struct_fields(t.conv2dConfig).get("activation", ""))
    if fused and fused.group(1) not in UNARY:
        raise ValueError(f"conv2d_config activation '{fused.group(1)}' is not a unary op the simulator has")
    y = UNARY[fused.group(1)](y) if fused else y
    return y.permute(0, 2, 1).reshape(1, 1, -1, y.shape[1])


def _prepare_conv2d(x, t):
    """A conv2d's OIHW weight (each group's block on the diagonal of a dense (O, C_in) one) as (1, 1, kH*kW*C_in,
    O), rows in (kH, kW, C_in) order; or its bias as (1, 1, 1, O). Zero padding up to the result's shape."""
    if t.type == 1:
        prepared = x["bias_tensor"].reshape(1, 1, -1, t.outChannels)[:, :, :1]
    else:
        w, groups = x["weight_tensor"], t.groups
        per_group_in, per_group_out = t.inChannels // groups, t.outChannels // groups
        dense = w.new_zeros(t.outChannels, t.inChannels, *w.shape[2:])
        for g in range(groups):
            rows = slice(g * per_group_out, (g + 1) * per_group_out)
            dense[rows, g * per_group_in:(g + 1) * per_group_in] = w[rows]
        prepared = dense.permute(2, 3, 1, 0).reshape(1, 1, -1, t.outChannels)
    shape = list(t.out.desc.shape)  # the declared result (a call of the ttnn API declares the weight's shape)
    if len(shape) != 4:
        return prepared
    return F.pad(prepared, (0, max(0, shape[3] - prepared.shape[3]), 0, max(0, shape[2] - prepared.shape[2])))


def _prepare_conv3d_weights(x, t):
    """(O, C/G, kD, kH, kW) -> (blocks, kD, kH, kW, c_in_block, O) flattened to 2D, channels zero-padded to the
    alignment: tt-metal's conv3d reads each block of input channels for every kernel position in turn."""
    w = x["weight_tensor"]
    out, channels = w.shape[0], w.shape[1] * t.groups
    aligned = round_up(channels, t.alignment)
    block = t.cInBlock or aligned
    w = F.pad(w.permute(2, 3, 4, 1, 0), (0, 0, 0, aligned - w.shape[1]))  # (kD, kH, kW, C, O)
    kd, kh, kw = w.shape[:3]
    w = w.reshape(kd, kh, kw, aligned // block, block, out).permute(3, 0, 1, 2, 4, 5)
    return w.reshape(-1, out)


def _conv3d(x, t, num: Numerics = EXACT):
    """NDHWC input, the prepared 2D weight (unflattened by the block its rows were laid out with), (1, O) bias."""
    a = x["input"].float().permute(0, 4, 1, 2, 3)
    kd, kh, kw = t.kernelSize
    w = x["weight"].float()
    rows = w.shape[0] // (kd * kh * kw)  # input channels, padded
    block = min(int(struct_fields(t.conv3dConfig).get("c_in_block", 0)) or rows, rows)
    w = w.reshape(rows // block, kd, kh, kw, block, t.outChannels).permute(5, 0, 4, 1, 2, 3)
    w = w.reshape(t.outChannels, rows, kd, kh, kw)[:, :a.shape[1]]
    pd, ph, pw = t.padding
    a = F.pad(a, (pw, pw, ph, ph, pd, pd), mode="replicate" if t.paddingMode == "replicate" else "constant")
    y = numerics.conv(F.conv3d, a, w, num, list(t.stride), 0, 1, t.groups)
    if x.get("bias") is not None:
        y = y + x["bias"].reshape(1, -1, 1, 1, 1).float()
    return y.permute(0, 2, 3, 4, 1)


def _sparse_matmul(x, t):
    """Each expert block of b by its rows of a, where the mask is non-zero; skipped blocks are zeros."""
    a, experts, mask = x["a"].float(), x["b"].float()[0], x["sparsity"] != 0
    if t.isInputBSparse and not t.isInputASparse:  # [A, B, M, K] by every expert: [A, B, 1, E, M, N]
        y = torch.einsum("abmk,ekn->abemn", a, experts).unsqueeze(2)
        return y * mask.reshape(*y.shape[:4], 1, 1)
    y = torch.einsum("aemk,ekn->aemn", a, experts)  # [A, E, M, K] by its own expert
    return y * mask.reshape(*y.shape[:2], 1, 1)


def _topk_router_gpt(x, t):
    """x @ W + b, its k largest (the first of equals first) and their softmax."""
    logits = x["input"].float() @ x["weight"].float() + x["bias"].float()
    values, indices = torch.sort(logits, dim=-1, descending=True, stable=True)
    return indices[:, :t.k], torch.softmax(values[:, :t.k], dim=-1)


def sampling_draws(seed: int | None, users: int) -> torch.Tensor:
    """The uniform numbers in [0, 1) a sampling op draws from its seed, one per user (its definition of randomness,
    shared by kernel and golden)."""
    return torch.rand(users, generator=torch.Generator().manual_seed(seed or 0), dtype=torch.float64)


def _sampling(x, t):
    """Per user: softmax(values * temp), its k (at least 1) most likely renormalized, the shortest prefix reaching mass p
    renormalized, the first whose cumulative probability exceeds the user's draw; its input index."""
    values = x["input_values"].double().reshape(-1, x["input_values"].shape[-1])
    indices = x["input_indices"].reshape(values.shape)
    probs = torch.softmax(values * x["temp"].double()[:, None], -1)
    ranked, order = torch.sort(probs, dim=-1, descending=True, stable=True)
    place = torch.arange(values.shape[1])
    ranked = torch.where(place < x["k"].long().clamp(min=1)[:, None], ranked, 0)  # the most likely always stays
    ranked = ranked / ranked.sum(-1, keepdim=True)
    before = ranked.cumsum(-1) - ranked  # mass of the more likely ones
    ranked = torch.where((before < x["p"].double()[:, None]) | (place == 0), ranked, 0)
    cumulative = (ranked / ranked.sum(-1, keepdim=True)).cumsum(-1)
    kept = (ranked > 0).sum(-1)
    chosen = torch.minimum((cumulative <= sampling_draws(t.seed, len(values))[:, None]).sum(-1), kept - 1)
    picked = indices.gather(1, order.gather(1, chosen[:, None])).flatten()
    return picked.reshape(1, 1, 1, -1) if x["input_values"].dim() == 4 else picked


def _pool2d(x, t):
    a = _nchw(x["input"].float(), t, t.channels)
    kernel, stride, dilation = pair(t.kernelSize), pair(t.stride), pair(t.dilation)
    top, left, bottom, right = padding4(t.padding)
    if t.type == 0:  # MaxPool2d
        a = F.pad(a, (left, right, top, bottom), value=-math.inf)
        y = F.max_pool2d(a, kernel, stride, 0, dilation, ceil_mode=bool(t.ceilMode))
    else:
        a = F.pad(a, (left, right, top, bottom))
        y = F.avg_pool2d(a, kernel, stride, 0, ceil_mode=bool(t.ceilMode))
        if not t.countIncludePad and any((top, left, bottom, right)):
            ones = F.pad(torch.ones_like(a[:, :1, top:a.shape[2] - bottom, left:a.shape[3] - right]),
                         (left, right, top, bottom))
            y = y / F.avg_pool2d(ones, kernel, stride, 0, ceil_mode=bool(t.ceilMode))
    return _flatten_nhwc(y)


def _max_pool2d_with_indices(x, t):
    """Each maximum's flat index in its unpadded (H, W) plane (the first one among equals)."""
    a = _nchw(x["input"].float(), t, t.channels)
    top, left, bottom, right = padding4(t.padding)
    a = F.pad(a, (left, right, top, bottom), value=-math.inf)
    y, padded_index = F.max_pool2d(a, pair(t.kernelSize), pair(t.stride), 0, pair(t.dilation),
                                   ceil_mode=bool(t.ceilMode), return_indices=True)
    row, col = padded_index // a.shape[3] - top, padded_index % a.shape[3] - left
    return _flatten_nhwc(y), _flatten_nhwc(row * t.inputWidth + col)


def _along(value: torch.Tensor, t, rank: int) -> torch.Tensor:
    """A scale or zero point: one value, or one per index of the quantized axis, shaped to broadcast."""
    if t.axis is None or value.numel() == 1:
        return value.reshape(-1)[:1].reshape([1] * rank)
    return value.reshape([-1 if d == t.axis % rank else 1 for d in range(rank)])


def _quantization(x, t):
    """quantize: round(input / scale) + zero_point; dequantize: (input - zero_point) * scale; requantize: the
    dequantized value quantized again with the output's parameters (rounded to nearest, ties to even)."""
    a, rank = x["input"], x["input"].dim()
    if t.type == 1:  # Dequantize
        return (a.double() - _along(x["zero_point"], t, rank)) * _along(x["scale"].double(), t, rank)
    if t.type == 0:  # Quantize
        scaled, zero_point = a.double() / _along(x["scale"].double(), t, rank), x["zero_point"]
    else:
        scaled = (a.double() - _along(x["in_zero_point"], t, rank)) * _along(x["in_scale"].double(), t, rank) / \
            _along(x["out_scale"].double(), t, rank)
        zero_point = x["out_zero_point"]
    return (torch.round(scaled) + _along(zero_point, t, rank)).to(torch.int64)


def _split_qkv(x, t):
    """Q | K | V along the hidden dimension (Q from the first input and K | V from the second when given), each
    split into heads: [batch, heads, seq, head_size]."""
    q_in, kv_in = x["input_tensor"], x.get("kv_input_tensor")
    kv_heads = t.numKvHeads if t.numKvHeads is not None else t.numHeads
    if kv_in is None:
        size = q_in.shape[-1] // (t.numHeads + 2 * kv_heads)
        q, k, v = q_in.split([t.numHeads * size, kv_heads * size, kv_heads * size], dim=-1)
    else:
        q, (k, v) = q_in, kv_in.chunk(2, dim=-1)
    heads = lambda a, n: a.reshape(*a.shape[:2], n, -1).permute(0, 2, 1, 3)  # noqa: E731
    key = heads(k, kv_heads)
    return heads(q, t.numHeads), key.transpose(2, 3) if t.transposeKey else key, heads(v, kv_heads)


def _upsample(x, t):
    a = x["input"].float().permute(0, 3, 1, 2)
    scale = pair(t.scaleFactor)
    mode = t.mode or "nearest"
    y = F.interpolate(a, scale_factor=tuple(float(s) for s in scale), mode=mode,
                      **({"align_corners": False} if mode == "bilinear" else {}))
    return y.permute(0, 2, 3, 1)


def _normalized(x, t, mean, var):
    """TTNN's batch norm over dimension 1 of NCHW, statistics, weight and bias [1, C, 1, 1]; without a weight or
    bias, no scale or shift."""
    weight, bias = x.get("weight"), x.get("bias")
    out = (x["input"] - mean) / torch.sqrt(var + t.epsilon)
    return out * (weight if weight is not None else 1) + (bias if bias is not None else 0)


def _batch_norm_inference(x, t):
    return _normalized(x, t, x["running_mean"], x["running_var"])


def _batch_norm_training(x, t):
    """Normalized by the batch's own statistics, which it also gives."""
    a = x["input"]
    mean, var = a.mean((0, 2, 3), keepdim=True), a.var((0, 2, 3), unbiased=False, keepdim=True)
    return _normalized(x, t, mean, var), mean, var


def _norm(x, t):
    a, w, b = x["input"], x.get("weight"), x.get("bias")
    if t.type == 0:  # LayerNorm, over the last dimension as TTNN's
        return F.layer_norm(a, a.shape[-1:], w, b, t.epsilon)
    out = a * torch.rsqrt(a.pow(2).mean(-1, keepdim=True) + t.epsilon)
    return out * (w if w is not None else 1) + (b if b is not None else 0)


def _dit_rms_norm_unary_fused(x, t):
    """rms_norm of input (+ residual_input) over the last dimension, then the activation, as one kernel."""
    a = x["input"] + x["residual_input"] if x.get("residual_input") is not None else x["input"]
    out = a * torch.rsqrt(a.pow(2).mean(-1, keepdim=True) + t.epsilon)
    out = out * (x["weight"] if x.get("weight") is not None else 1) + (x["bias"] if x.get("bias") is not None else 0)
    if t.activation and t.activation not in UNARY:
        raise ValueError(f"dit_rms_norm_unary_fused activation '{t.activation}' is not a unary op the simulator has")
    return UNARY[t.activation](out) if t.activation else out


def _group_norm(x, t):
    a = x["input"]  # (N, H, W, C) or (N, 1, H*W, C): channels last
    c = a.shape[-1]
    y = F.group_norm(a.reshape(a.shape[0], -1, c).permute(0, 2, 1), t.numGroups, None, None, t.epsilon)
    y = y.permute(0, 2, 1).reshape(a.shape)
    if x.get("weight") is not None:
        y = y * x["weight"].reshape(-1)
    if x.get("bias") is not None:
        y = y + x["bias"].reshape(-1)
    return y


def _cache(x, t):
    """UpdateCache writes user b's token (input[0, :, b]) at update_index of cache row batch_offset + b;
    FillCache writes a prompt from position 0, and the device's tile writes zero the rest of its last tile."""
    cache, update, offset = x["cache"].clone(), x["input"], t.batchOffset
    if x.get("page_table") is not None:
        return _paged_fill(cache, update, x["page_table"].long(), x.get("batch_idx_tensor"))
    if t.type == 0:
        position = int(x["update_index"].reshape(-1)[0])
        cache[offset:offset + update.shape[2], :, position, :] = update[0].transpose(0, 1)
    else:
        length = update.shape[2]
        cache[offset:offset + update.shape[0], :, :length, :] = update
        cache[offset:offset + update.shape[0], :, length:round_up(length, 32), :] = 0
    return cache


def _paged_update_cache(x, t):
    """User u's token (input[0, u]) at position p = update_index[u]: row p of cache row u, or row p % block of
    its page page_table[u][p // block]."""
    cache, update, positions = x["cache"].clone(), x["input"][0], x["update_index"].reshape(-1).long()
    table = x.get("page_table")
    block = cache.shape[2]
    if bool((positions < 0).any()):  # the device reads the index unsigned: a negative one is far past the end
        raise IndexError(f"update index {int(positions.min())} is out of bounds")
    pages = table.long()[torch.arange(len(positions)), positions // block] if table is not None else \
        torch.arange(len(positions))
    rows = positions % block if table is not None else positions
    cache[pages, :, rows, :] = update
    return cache


def _paged_fill(cache, update, table, rows) -> torch.Tensor:
    """Each batch row's prompt scattered block by block through its page table row, whole tiles at a time."""
    block = cache.shape[2]
    rows = rows.reshape(-1).long().tolist() if rows is not None else [0] * update.shape[0]
    length = update.shape[2]
    padded = F.pad(update, (0, 0, 0, round_up(length, 32) - length))  # the rest of the last tile is zeros
    for b, row in enumerate(rows):
        for start in range(0, min(padded.shape[2], table.shape[1] * block), block):
            chunk = padded[b, :, start:start + block]
            cache[int(table[row, start // block]), :, :chunk.shape[1]] = chunk
    return cache


def _topk(x, t):
    """Sorted order (a valid unsorted top-k too); among equal values the first index wins, so runs are
    reproducible where torch.topk's choice among ties is not."""
    values, indices = torch.sort(x["input_tensor"], dim=t.dim, descending=t.largest, stable=True)
    return values.narrow(t.dim, 0, t.k), indices.narrow(t.dim, 0, t.k)


def _slice(x, t):
    a = x["input"]
    index = []
    for dim, (begin, end, step) in enumerate(zip(t.begins, t.ends, t.step)):
        size = a.shape[dim]
        begin, end = begin + size if begin < 0 else begin, end + size if end < 0 else end
        if step < 0:
            a = a.flip(dim)
            begin, end, step = size - 1 - begin, size - 1 - end, -step
        index.append(slice(begin, end, step))
    return a[tuple(index)]


def _pad(x, t):
    padding = list(t.padding)
    pairs = [padding[i:i + 2] for i in range(0, len(padding), 2)]
    flat = [v for low, high in reversed(pairs) for v in (low, high)]
    return F.pad(x["input"], flat, value=t.value)


def _gather(x, t):
    if t.offsetDims is None:
        return torch.gather(x["input"], t.dim, x["start_indices"].long())
    return stablehlo_gather(x["input"], x["start_indices"], list(t.offsetDims), _ints(t.collapsedSliceDims),
                            _ints(t.operandBatchingDims), list(t.startIndexMap), t.indexVectorDim, list(t.sliceSizes),
                            _ints(t.startIndicesBatchingDims))


def _ints(values) -> list[int]:
    return [int(v) for v in values] if values is not None else []


def stablehlo_gather(operand, indices, offset_dims, collapsed, batching, start_map, ivd, sizes, start_batching=()):
    """StableHLO gather: one slice of the operand per index vector, laid out as offset_dims says; on the operand's
    batching dims (`batching`) the slice starts at the index vector's own position along the matching dims of
    the indices (`start_batching`)."""
    indices = indices.long()
    if ivd == indices.dim():
        indices = indices.unsqueeze(-1)
    indices = indices.movedim(ivd, -1)
    batch_shape = indices.shape[:-1]
    kept = [d for d in range(operand.dim()) if d not in set(collapsed) and d not in batching]
    slices = []
    for batch_index in torch.cartesian_prod(*[torch.arange(n) for n in batch_shape]).reshape(-1, len(batch_shape)) \
            if batch_shape else [()]:
        vector = indices[tuple(int(i) for i in batch_index)] if batch_shape else indices
        start = [0] * operand.dim()
        for k, d in enumerate(start_map):
            start[d] = int(min(max(int(vector[k]), 0), operand.shape[d] - sizes[d]))
        for d, d_start in zip(batching, start_batching):  # batch_index runs over the indices' dims but ivd
            start[d] = int(batch_index[d_start if d_start < ivd else d_start - 1])
        piece = operand[tuple(slice(s, s + n) for s, n in zip(start, sizes))]
        slices.append(piece.reshape([sizes[d] for d in kept]))
    stacked = torch.stack(slices).reshape(*batch_shape, *[sizes[d] for d in kept])
    out_rank = len(batch_shape) + len(kept)
    order = [d for d in range(out_rank) if d not in offset_dims]
    return stacked.movedim(list(range(out_rank)), order + list(offset_dims))


def _constant(t):
    import numpy as np

    raw = bytes(np.asarray(t.value, dtype=np.uint8))
    shape = list(t.out.desc.shape)
    values = np.frombuffer(raw, dtype=np.float32 if len(raw) == 4 * math.prod(shape) else np.int64)
    return torch.from_numpy(values.copy()).reshape(shape)


def _number(value):
    """A NumberType field's value: a Python int for an integer (exact at any width), a float otherwise."""
    return int(value.value) if isinstance(value, fb.IntegralTypeT) else float(value.value)


def _load_tensor(x, t):
    """What ttnn.dump_tensor saved to `file_path` (the same value on every chip of a mesh)."""
    try:
        saved = torch.load(t.filePath, weights_only=True)
        values = saved["values"]
    except (OSError, RuntimeError, KeyError, TypeError) as exc:
        raise RuntimeFailure(f"'ttnn.load_tensor': cannot read {t.filePath} as a dumped tensor: {exc}") from None
    if list(saved["shape"]) != _shape_of(t.out):
        raise RuntimeFailure(f"'ttnn.load_tensor': {t.filePath} holds a tensor of shape {list(saved['shape'])}, "
                             f"not the {_shape_of(t.out)} the op returns")
    if any(not torch.equal(v, values[0]) for v in values[1:]):
        raise RuntimeFailure(f"'ttnn.load_tensor': {t.filePath} holds a different value per chip; only a "
                             "replicated tensor loads here")
    return values[0]


def _creation(x, t):
    name = ("empty", "full", "zeros", "ones", "arange", "rand", "constant")[t.type]
    shape = list(t.shape if t.shape is not None else t.size if t.size is not None else t.out.desc.shape)
    if name in ("empty", "zeros"):
        return torch.zeros(shape)
    if name == "ones":
        return torch.ones(shape)
    if name == "full":
        fill = _number(t.fillValue)
        return torch.full(shape, fill, dtype=torch.int64 if isinstance(fill, int) else torch.float32)
    if name == "arange":
        return torch.arange(t.start, t.end, t.step).reshape(list(t.out.desc.shape)).float()
    if name == "rand":
        generator = torch.Generator().manual_seed(int(t.seed))
        return torch.rand(shape, generator=generator) * (t.high - t.low) + t.low
    return _constant(t)


def _matmul(x, t, num: Numerics = EXACT):
    a, b = x["a"], x["b"]
    if t.transposeA:
        a = a.transpose(-1, -2)
    if t.transposeB:
        b = b.transpose(-1, -2)
    out = numerics.matmul(a, b, num)
    out = out + x["bias"] if x.get("bias") is not None else out
    if t.activation:  # fused by ttnn-fusing: the unary op on the result, as tt-metal applies it
        if t.activation not in UNARY:
            raise ValueError(f"matmul activation '{t.activation}' is not a unary op the simulator has")
        out = UNARY[t.activation](out)
    return out


def _softmax(x, t, num: Numerics = EXACT):
    """exp of the shifted row times the reciprocal of its sum, each on the SFPU (approximated in approx mode)."""
    a = x["input"].float()
    if not num.math_approx_mode or num.exact:
        return torch.softmax(a, t.dimension)
    e = numerics.sfpu("exp", torch.exp, a - a.amax(t.dimension, keepdim=True), num)
    return e * numerics.sfpu("recip", torch.reciprocal, e.sum(t.dimension, keepdim=True), num)


KERNELS: dict[str, Kernel] = {
    **{name: _unary(fn) for name, fn in UNARY.items()},
    **{name: _binary(fn) for name, fn in BINARY.items()},
    **{name: _reduce(fn) for name, fn in REDUCTIONS.items()},
    "leaky_relu": lambda x, t: F.leaky_relu(x["input"], t.parameter),
    "selu": lambda x, t: t.scale * torch.where(x["input"] > 0, x["input"], t.alpha * torch.expm1(x["input"])),
    "gelu_bw": lambda x, t: torch.ops.aten.gelu_backward(x["lhs"], x["rhs"], approximate=t.approximate),
    "dropout": lambda x, t: _dropout(x["input"], t.prob, t.scale, t.seed),
    "pow_scalar": lambda x, t: torch.pow(x["input"], _number(t.rhs)),
    "clamp_scalar": lambda x, t: torch.clamp(x["input"], _number(t.min), _number(t.max)),
    "where": lambda x, t: torch.where(x["first"] != 0, x["second"], x["third"]),
    "clamp_tensor": lambda x, t: torch.minimum(torch.maximum(x["input"], x["min"]), x["max"]),
    "cumsum": lambda x, t: torch.cumsum(x["input"], t.dim),
    "cumprod": lambda x, t: torch.cumprod(x["input"], t.dim),
    "sort": lambda x, t: tuple(torch.sort(x["input"], dim=t.dim, descending=t.descending, stable=True)),
    "topk": _topk,
    "reshape": lambda x, t: x["input"].reshape(list(t.shape)),
    "concat": lambda x, t: torch.cat(x["inputs"], t.dim),
    "repeat": lambda x, t: x["input"].repeat(list(t.repeatDims)),
    "repeat_interleave": lambda x, t: torch.repeat_interleave(x["input"], t.repeats, t.dim),
    "permute": lambda x, t: x["input"].permute(list(t.permutation)),
    "pad": _pad,
    "slice_static": _slice,
    "slice_dynamic": _slice_dynamic,
    "scatter": _scatter,
    "embedding_bw": _embedding_bw,
    "bitcast_convert": _bitcast_convert,
    "nlp_concat_heads": lambda x, t: x["input"].permute(0, 2, 1, 3).reshape(
        x["input"].shape[0], 1, x["input"].shape[2], -1),
    "nlp_concat_heads_decode": _nlp_concat_heads_decode,
    "nlp_create_qkv_heads_decode": _nlp_create_qkv_heads_decode,
    "rotary_embedding": _rotary_embedding,
    "rotary_embedding_llama": _rotary_embedding,
    "rms_norm_pre_all_gather": _norm_stats,
    "layer_norm_pre_all_gather": _norm_stats,
    "layer_norm_post_all_gather": _layer_norm_post_all_gather,
    "reverse": lambda x, t: torch.flip(x["input"], list(t.dimensions)),
    "gather": _gather,
    "matmul": _matmul,
    "linear": _matmul,
    "softmax": _softmax,
    "embedding": lambda x, t: F.embedding(x["input"].long(), x["weight"].reshape(-1, x["weight"].shape[-1])),
    "conv1d": _conv1d,
    "conv2d": _conv2d,
    "conv_transpose2d": _conv2d,
    "conv3d": _conv3d,
    "sparse_matmul": _sparse_matmul,
    "topk_router_gpt": _topk_router_gpt,
    "sampling": _sampling,
    "prepare_conv3d_weights": _prepare_conv3d_weights,
    "prepare_conv2d_weights": _prepare_conv2d, "prepare_conv2d_bias": _prepare_conv2d,
    "max_pool2d": _pool2d,
    "avg_pool2d": _pool2d,
    "max_pool2d_with_indices": _max_pool2d_with_indices,
    "split_query_key_value_and_split_heads": _split_qkv,
    "concatenate_heads": lambda x, t: x["input"].permute(0, 2, 1, 3).flatten(2),
    "assign": lambda x, t: x["input"],
    **dict.fromkeys(("scaled_dot_product_attention", "flash_mla_prefill"), sdpa),
    **dict.fromkeys(("scaled_dot_product_attention_decode", "paged_scaled_dot_product_attention_decode",
                     "paged_flash_multi_latent_attention_decode"), sdpa_decode),
    "chunked_scaled_dot_product_attention": chunked_sdpa,
    "indexer_score_dsa": indexer_score,
    "adamw": adamw, "sdpa_fw": sdpa_fw, "sdpa_bw": sdpa_bw,
    **{name: _quantization for name in ("quantize", "dequantize", "requantize")},
    "global_avg_pool2d": lambda x, t: x["input"].float().mean((1, 2), keepdim=True),
    "upsample": _upsample,
    "batch_norm_inference": _batch_norm_inference,
    "batch_norm_training": _batch_norm_training,
    "layer_norm": _norm,
    "rms_norm": _norm,
    "dit_rms_norm_unary_fused": _dit_rms_norm_unary_fused,
    "group_norm": _group_norm,
    "update_cache": _cache,
    "paged_update_cache": _paged_update_cache,
    "fill_cache": _cache,
    "paged_fill_cache": _cache,
    **{name: lambda x, t: x["input"] for name in ("to_layout", "to_device", "from_device", "to_memory_config",
                                                  "typecast")},
    **{name: _creation for name in ("empty", "full", "zeros", "ones", "arange", "rand", "constant")},
    "load_tensor": _load_tensor,
    "prepare_moe_compute_w0_w1_weights": moe_fused.prepare_w0_w1,
    "prepare_moe_compute_w2_weights": moe_fused.prepare_w2,
}


def _shape_of(ref) -> list[int]:
    return [int(d) for d in ref.desc.shape]


def _distributed_rms_norm(x: dict, t, mesh) -> list:
    """Each chip's sum of squares over its part of the last dimension, summed along the cluster axis (all the
    chips exchange), normalizes that chip's part."""
    values = [v + r for v, r in zip(x["input"], x["residual"])] if "residual" in x else x["input"]
    squares = [(v * v).sum(-1, keepdim=True) for v in values]
    out = list(values)
    for line in ccl.groups(t.clusterAxis, mesh):
        mean = sum(squares[c] for c in line) / sum(values[c].shape[-1] for c in line)
        for c in line:
            # the weight's values in order, whether 1D or in rows of one tile's width (as the fused kernel reads it)
            out[c] = values[c] * torch.rsqrt(mean + t.epsilon) * (x["weight"][c].reshape(-1) if "weight" in x else 1)
    return out


def _distributed_layer_norm(x: dict, t, mesh) -> list:
    """Each chip's row sums and sums of squares over its part of the last dimension, summed along the cluster axis,
    give the mean and variance of the whole rows that normalize each chip's part."""
    values = [v + r for v, r in zip(x["input"], x["residual"])] if "residual" in x else x["input"]
    out = list(values)
    for line in ccl.groups(t.clusterAxis, mesh):
        count = sum(values[c].shape[-1] for c in line)
        mean = sum(values[c].sum(-1, keepdim=True) for c in line) / count
        variance = sum((values[c] * values[c]).sum(-1, keepdim=True) for c in line) / count - mean * mean
        for c in line:
            normed = (values[c] - mean) * torch.rsqrt(variance + t.epsilon)
            normed = normed * x["weight"][c] if "weight" in x else normed
            out[c] = normed + x["bias"][c] if "bias" in x else normed
    return out


def _placements(config) -> list[tuple[str, int]]:
    kinds = enum_names(fb.PlacementType)
    return [(kinds[p.type], p.dim) for p in config.placements or []]


def _override(config) -> list[int] | None:
    return list(config.meshShapeOverride) if config.meshShapeOverride is not None else None


def _mesh_kernels() -> dict[str, MeshKernel]:
    """Kernels that see the whole mesh: they take one tensor per chip for each input field and return one per
    chip."""
    reduce_type = enum_names(fb.ReduceType)
    return {
        "distribute_tensor": lambda x, t, mesh: ccl.distribute(x["input"], _placements(t.mapperConfig),
                                                               _override(t.mapperConfig), mesh),
        "aggregate_tensor": lambda x, t, mesh: ccl.aggregate(x["input"], list(t.composerConfig.dims),
                                                             _override(t.composerConfig), mesh),
        "all_gather": lambda x, t, mesh: ccl.all_gather(x["input"], t.allGatherDim, t.clusterAxis, mesh),
        **dict.fromkeys(("all_reduce", "all_reduce_async"), lambda x, t, mesh: ccl.all_reduce(
            x["input"], reduce_type[t.reduceType], t.clusterAxis, mesh)),
        "reduce_scatter": lambda x, t, mesh: ccl.reduce_scatter(x["input"], reduce_type[t.reduceType], t.scatterDim,
                                                                t.clusterAxis, mesh),
        "point_to_point": lambda x, t, mesh: ccl.point_to_point(x["input"], x.get("optional_output_tensor"),
                                                                list(t.senderCoord), list(t.receiverCoord), mesh),
        "mesh_partition": lambda x, t, mesh: ccl.mesh_partition(x["input"], t.dim, t.clusterAxis, mesh),
        "distributed_rms_norm": _distributed_rms_norm, "distributed_layer_norm": _distributed_layer_norm,
        "all_to_all_dispatch": lambda x, t, mesh: ccl.all_to_all_dispatch(
            x["input_tensor"], x["expert_indices"], x["expert_mapping"], t.clusterAxis, mesh,
            (_shape_of(t.dispatched), _shape_of(t.metadata))),
        "all_to_all_dispatch_metadata": lambda x, t, mesh: ccl.all_to_all_dispatch_metadata(
            x["input_tensor"], x["expert_indices"], x["expert_scores"], x["expert_mapping"], t.clusterAxis, mesh),
        "all_to_all_combine": lambda x, t, mesh: ccl.all_to_all_combine(
            x["input_tensor"], x["expert_metadata"], x["expert_mapping"], t.clusterAxis, t.outputShardDim, mesh),
        "moe_expert_token_remap": lambda x, t, mesh: ccl.moe_expert_token_remap(
            x["topk_tensor"], x["expert_mapping"], x["expert_metadata"], t.reductionSize,
            (_shape_of(t.mapping), _shape_of(t.reduced))),
        "moe_compute": moe_fused.moe_compute, "selective_reduce_combine": moe_fused.selective_reduce_combine,
    }


MESH_KERNELS = _mesh_kernels()
