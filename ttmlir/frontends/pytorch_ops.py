"""The ATen lowering table of the PyTorch importer: one function per ATen op (or family) building the TTIR ops that
compute it on the current function."""

from __future__ import annotations

import math
import operator
from typing import Callable

import torch
from ttmlir.frontends.pytorch_builder import Lower, TORCH_TYPES, Unsupported, Value, float_text, mlir_dtype, promoted, darray, i32s

aten = torch.ops.aten


# --- the table: ATen op -> lowering ----------------------------------------------------------------------

LOWERINGS: dict[object, Callable] = {}


def lowers(*ops):
    def register(fn):
        for o in ops:
            LOWERINGS[o] = fn
        return fn
    return register


UNARY = {aten.abs: "abs", aten.ceil: "ceil", aten.floor: "floor", aten.cos: "cos", aten.sin: "sin",
         aten.tan: "tan", aten.tanh: "tanh", aten.neg: "neg", aten.relu: "relu", aten.rsqrt: "rsqrt",
         aten.sigmoid: "sigmoid", aten.silu: "silu", aten.sqrt: "sqrt", aten.exp: "exp", aten.log: "log",
         aten.log1p: "log1p", aten.expm1: "expm1", aten.erf: "erf", aten.reciprocal: "reciprocal",
         aten.sign: "sign", aten.logical_not: "logical_not", aten.hardsigmoid: "hardsigmoid",
         aten.mish: "mish", aten.atan: "atan", aten.trunc: "trunc", aten.isfinite: "isfinite",
         aten.exp2: "exp2", aten.erfc: "erfc", aten.asin: "asin", aten.acos: "acos"}
BINARY = {aten.add: "add", aten.sub: "subtract", aten.mul: "multiply", aten.div: "div",
          aten.maximum: "maximum", aten.minimum: "minimum", aten.remainder: "remainder", aten.atan2: "atan2",
          aten.logical_and: "logical_and", aten.logical_or: "logical_or", aten.logical_xor: "logical_xor",
          aten.bitwise_and: "bitwise_and", aten.bitwise_or: "bitwise_or", aten.bitwise_xor: "bitwise_xor",
          aten.__and__: "bitwise_and", aten.__or__: "bitwise_or"}
COMPARE = {aten.eq: "eq", aten.ne: "ne", aten.gt: "gt", aten.ge: "ge", aten.lt: "lt", aten.le: "le"}
LOGICAL_ON_BOOL = {"bitwise_and": "logical_and", "bitwise_or": "logical_or", "bitwise_xor": "logical_xor"}
IDENTITY = (aten.clone, aten.contiguous, aten.alias, aten.detach, aten.lift_fresh_copy, aten.dropout,
            aten.feature_dropout, aten.alpha_dropout)


@lowers(*UNARY)
def _unary(L: Lower, x, *_):
    return L.eltwise(UNARY[L.node.target.overloadpacket], [x])


@lowers(aten.gelu)
def _gelu(L: Lower, x, approximate="none"):
    if approximate == "none":
        return L.eltwise("gelu", [x])
    # tanh form: x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    cube = L.eltwise("multiply", [L.eltwise("multiply", [x, x]), x])
    inner = L.eltwise("multiply", [L.eltwise("add", [x, L.eltwise("multiply", [cube, 0.044715])]),
                                   math.sqrt(2 / math.pi)])
    return L.eltwise("multiply", [L.eltwise("multiply", [x, 0.5]), L.eltwise("add", [L.eltwise("tanh", [inner]), 1.0])])


@lowers(*BINARY)
def _binary(L: Lower, a, b, alpha=1, rounding_mode=None):
    name = BINARY[L.node.target.overloadpacket]
    if rounding_mode is not None:
        if rounding_mode != "floor" and rounding_mode != "trunc":
            raise Unsupported(f"div rounding_mode={rounding_mode}")
        compute = promoted([a, b]) if promoted([a, b]) in ("f32", "bf16", "f16") else "f32"
        q = L.eltwise("div", [a, b], compute=compute)
        return L.cast(L.op(rounding_mode, [q], dtype=compute), L.odtype())
    if alpha != 1:
        b = L.eltwise("multiply", [b, alpha], compute=L.odtype())
    if name == "div" and L.odtype() in ("f32", "bf16", "f16"):
        return L.eltwise(name, [a, b])
    if L.odtype() == "i1" and name in LOGICAL_ON_BOOL:
        name = LOGICAL_ON_BOOL[name]
    return L.eltwise(name, [a, b])


@lowers(*COMPARE)
def _compare(L: Lower, a, b):
    return L.eltwise(COMPARE[L.node.target.overloadpacket], [a, b], dtype="i1", compute=promoted([a, b]))


@lowers(aten.pow)
def _pow(L: Lower, a, b):
    if isinstance(b, (int, float)) and b == 2:
        return L.eltwise("multiply", [a, a])
    if isinstance(b, (int, float)) and b == 0.5:
        return L.eltwise("sqrt", [a])
    if isinstance(b, (int, float)) and b == -0.5:
        return L.eltwise("rsqrt", [a])
    return L.eltwise("pow", [a, b])


@lowers(aten.where)
def _where(L: Lower, cond, a, b):
    rank = len(L.oshape())
    cond = L.rank_to(L.tensor(cond, "i1", rank), rank)
    dtype = L.odtype()
    a, b = (L.rank_to(L.cast(L.tensor(v, dtype, rank), dtype), rank) for v in (a, b))
    return L.op("where", [L.broadcast_to(cond, L.oshape()), a, b])


@lowers(aten.clamp, aten.hardtanh, aten.clamp_min, aten.clamp_max)
def _clamp(L: Lower, x, lo=None, hi=None):
    target = L.node.target.overloadpacket
    if target is aten.hardtanh:
        lo, hi = (-1.0 if lo is None else lo), (1.0 if hi is None else hi)
    if target is aten.clamp_max:
        lo, hi = None, lo
    if isinstance(lo, Value) or isinstance(hi, Value):
        raise Unsupported("clamp with tensor bounds")
    lo = -torch.finfo(torch.float32).max if lo is None else lo
    hi = torch.finfo(torch.float32).max if hi is None else hi
    return L.op("clamp_scalar", [x], attrs={"min": f"{float_text(lo)} : f32", "max": f"{float_text(hi)} : f32"})


@lowers(aten.leaky_relu)
def _leaky_relu(L: Lower, x, slope=0.01):
    return L.op("leaky_relu", [x], attrs={"parameter": f"{float_text(slope)} : f32"})


@lowers(aten.relu6)
def _relu6(L: Lower, x):
    return L.op("relu6", [x])


@lowers(aten.elu)
def _elu(L: Lower, x, alpha=1.0, scale=1.0, input_scale=1.0):
    if scale != 1.0 or input_scale != 1.0:
        raise Unsupported("elu with scale")
    neg = L.eltwise("multiply", [L.eltwise("expm1", [L.eltwise("minimum", [x, 0.0])]), alpha])
    return L.eltwise("add", [L.eltwise("relu", [x]), neg])


@lowers(*IDENTITY, aten._assert_tensor_metadata)
def _identity(L: Lower, x, *_args, **_kwargs):
    return x if isinstance(x, Value) else None


@lowers(aten._to_copy, aten.to, aten.type_as)
def _to(L: Lower, x, *args, **_kwargs):
    return L.cast(x, L.odtype())


# linear algebra


@lowers(aten.linear)
def _linear(L: Lower, x, w, b=None):
    return L.op("linear", [x, w] + ([b] if b is not None else []),
                attrs={"transpose_a": "false", "transpose_b": "true"})


@lowers(aten.addmm)
def _addmm(L: Lower, bias, a, b, beta=1, alpha=1):
    if beta != 1 or alpha != 1:
        raise Unsupported("addmm with beta/alpha")
    return L.op("linear", [a, b, bias], attrs={"transpose_a": "false", "transpose_b": "false"})


@lowers(aten.mm, aten.bmm, aten.matmul)
def _matmul(L: Lower, a, b):
    if a.rank == 1 or b.rank == 1:
        raise Unsupported("matmul of a vector")
    return L.op("matmul", [a, b], attrs={"transpose_a": "false", "transpose_b": "false"})


@lowers(aten.t)
def _t(L: Lower, x):
    return L.permute(x, list(range(x.rank))[::-1])


# convolution and pooling: torch is channels-first, TTIR's are channels-last


def _pair(v, n=2):
    v = list(v) if isinstance(v, (list, tuple)) else [v]
    return v * n if len(v) == 1 else v


def _conv(L: Lower, x, w, b, stride, padding, dilation, transposed, output_padding, groups):
    if isinstance(padding, str):
        raise Unsupported(f"convolution padding='{padding}'")
    spatial = x.rank - 2
    if spatial not in (1, 2):
        raise Unsupported(f"{spatial}-d convolution")
    if spatial == 1:  # a 1-d convolution is a 2-d one over a height of 1
        x = L.reshape(x, (x.shape[0], x.shape[1], 1, x.shape[2]))
        w = L.reshape(w, (*w.shape[:2], 1, w.shape[2]))
        stride, padding, dilation = [1, *_pair(stride, 1)], [0, *_pair(padding, 1)], [1, *_pair(dilation, 1)]
        output_padding = [0, *_pair(output_padding, 1)]
    stride, padding, dilation = _pair(stride), _pair(padding), _pair(dilation)
    nhwc = L.permute(x, (0, 2, 3, 1))
    out = L.oshape() if spatial == 2 else (L.oshape()[0], L.oshape()[1], 1, L.oshape()[2])
    out_nhwc = (out[0], out[2], out[3], out[1])
    operands = [nhwc, w] + ([L.reshape(b, (1, 1, 1, b.shape[0]))] if b is not None else [])
    attrs = {"stride": darray("i32", stride), "padding": darray("i32", padding),
             "dilation": darray("i32", dilation), "groups": f"{int(groups)} : i32"}
    if transposed:
        attrs["output_padding"] = darray("i32", _pair(output_padding))
        y = L.op("conv_transpose2d", operands, out_nhwc, attrs=attrs)
    else:
        y = L.op("conv2d", operands, out_nhwc, attrs=attrs)
    y = L.permute(y, (0, 3, 1, 2))
    return L.reshape(y, L.oshape())


@lowers(aten.convolution)
def _convolution(L, x, w, b, stride, padding, dilation, transposed, output_padding, groups):
    return _conv(L, x, w, b, stride, padding, dilation, transposed, output_padding, groups)


@lowers(aten.conv2d, aten.conv1d)
def _conv2d(L, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(L, x, w, b, stride, padding, dilation, False, 0, groups)


@lowers(aten.conv_transpose2d, aten.conv_transpose1d)
def _conv_transpose(L, x, w, b=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv(L, x, w, b, stride, padding, dilation, True, output_padding, groups)


def _pool(L: Lower, name, x, kernel, stride, padding, dilation, ceil_mode, extra=None):
    if x.rank != 4:
        raise Unsupported(f"{name} of a rank-{x.rank} tensor")
    kernel = _pair(kernel)
    stride = _pair(stride) if stride else kernel
    pad = _pair(padding)
    attrs = {"kernel": darray("i32", kernel), "stride": darray("i32", stride),
             "dilation": darray("i32", _pair(dilation)), "padding": darray("i32", [pad[0], pad[1], pad[0], pad[1]]),
             "ceil_mode": "true" if ceil_mode else "false", **(extra or {})}
    n, c, h, w = L.oshape()
    y = L.op(name, [L.permute(x, (0, 2, 3, 1))], (n, h, w, c), attrs=attrs)
    return L.permute(y, (0, 3, 1, 2))


@lowers(aten.max_pool2d)
def _max_pool(L, x, kernel, stride=(), padding=0, dilation=1, ceil_mode=False):
    return _pool(L, "max_pool2d", x, kernel, stride, padding, dilation, ceil_mode)


@lowers(aten.avg_pool2d)
def _avg_pool(L, x, kernel, stride=(), padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None):
    if divisor_override is not None:
        raise Unsupported("avg_pool2d divisor_override")
    return _pool(L, "avg_pool2d", x, kernel, stride, padding, 1, ceil_mode,
                 {"count_include_pad": "true" if count_include_pad else "false"})


@lowers(aten.adaptive_avg_pool2d, aten._adaptive_avg_pool2d)
def _adaptive_avg_pool(L, x, size):
    if tuple(_pair(size)) != (1, 1):
        raise Unsupported(f"adaptive_avg_pool2d to {tuple(_pair(size))}")
    n, c = x.shape[:2]
    y = L.op("global_avg_pool2d", [L.permute(x, (0, 2, 3, 1))], (n, 1, 1, c))
    return L.permute(y, (0, 3, 1, 2))


# normalization


@lowers(aten.layer_norm)
def _layer_norm(L, x, normalized_shape, w=None, b=None, eps=1e-5, *_):
    operands = [x] + [v for v in (w, b) if v is not None]
    segments = [1, int(w is not None), int(b is not None)]
    if w is None and b is not None:
        raise Unsupported("layer_norm with a bias but no weight")
    return L.op("layer_norm", operands, attrs={"epsilon": f"{float_text(eps)} : f32",
                                               "normalized_shape": darray("i64", normalized_shape),
                                               "operandSegmentSizes": darray("i32", segments)})


@lowers(aten.native_layer_norm)
def _native_layer_norm(L, x, normalized_shape, w, b, eps):
    """The normalized tensor (one ttir.layer_norm) and, when read (a training graph saves them for its backward),
    the mean and 1/sqrt(variance + eps) over the normalized dims, kept as size-1 dims."""
    metas = L.meta
    L.meta = metas[0]
    out = _layer_norm(L, x, normalized_shape, w, b, eps)
    if not any(u.target is operator.getitem and u.args[1] in (1, 2) for u in L.node.users):
        return (out, None, None)
    dims = list(range(x.rank - len(normalized_shape), x.rank))
    kept = tuple(1 if d in dims else n for d, n in enumerate(x.shape))
    attrs = {"dim_arg": i32s(dims), "keep_dim": "true"}
    mean = L.f.op("mean", [x], kept, x.dtype, attrs)
    centered = L.f.op("subtract", [x, L.broadcast_to(mean, x.shape)], x.shape, x.dtype)
    variance = L.f.op("mean", [L.f.op("multiply", [centered, centered], x.shape, x.dtype)], kept, x.dtype, attrs)
    shifted = L.f.op("add", [variance, L.broadcast_to(L.full(eps, x.dtype, len(kept)), kept)], kept, x.dtype)
    rstd = L.f.op("rsqrt", [shifted], kept, x.dtype)
    return (out, L.reshape(mean, L.oshape(metas[1])), L.reshape(rstd, L.oshape(metas[2])))


@lowers(aten.rms_norm)
def _rms_norm(L, x, normalized_shape, w=None, eps=None):
    eps = torch.finfo(TORCH_TYPES[x.dtype]).eps if eps is None else eps
    operands = [x] + ([w] if w is not None else [])
    return L.op("rms_norm", operands, attrs={"epsilon": f"{float_text(eps)} : f32",
                                             "normalized_shape": darray("i64", normalized_shape),
                                             "operandSegmentSizes": darray("i32", [1, int(w is not None), 0])})


def _batch_norm(L, x, w, b, mean, var, eps):
    c = x.shape[1]
    w = w if w is not None else L.full(1.0, x.dtype, 1)
    b = b if b is not None else L.full(0.0, x.dtype, 1)
    w, b = (L.broadcast_to(v, (c,)) for v in (w, b))
    return L.op("batch_norm_inference", [x, w, b, mean, var],
                attrs={"dimension": "1 : i32", "epsilon": f"{float_text(eps)} : f32"})


@lowers(aten._native_batch_norm_legit_no_training)
def _native_batch_norm(L, x, w, b, mean, var, momentum, eps):
    L.meta = L.meta[0]
    return (_batch_norm(L, x, w, b, mean, var, eps), None, None)


@lowers(aten.batch_norm)
def _batch_norm_op(L, x, w, b, mean, var, training, momentum, eps, *_):
    if training or mean is None:
        raise Unsupported("batch_norm in training mode")
    return _batch_norm(L, x, w, b, mean, var, eps)


@lowers(aten.group_norm)
def _group_norm(L, x, groups, w=None, b=None, eps=1e-5, *_):
    if x.rank < 3:
        raise Unsupported("group_norm of a rank-2 tensor")
    n, c = x.shape[:2]
    spatial = math.prod(x.shape[2:])
    rows = L.reshape(L.permute(L.reshape(x, (n, c, spatial)), (0, 2, 1)), (n, 1, spatial, c))
    operands = [rows] + [v for v in (w, b) if v is not None]
    y = L.op("group_norm", operands, (n, 1, spatial, c),
             attrs={"epsilon": f"{float_text(eps)} : f32", "num_groups": f"{int(groups)} : i64",
                    "operandSegmentSizes": darray("i32", [1, 0, int(w is not None), int(b is not None)])})
    return L.reshape(L.permute(L.reshape(y, (n, spatial, c)), (0, 2, 1)), x.shape)


@lowers(aten.softmax, aten._softmax)
def _softmax(L, x, dim, *_):
    return L.op("softmax", [L.cast(x, L.odtype())], attrs={"dimension": f"{int(dim)} : si32"})


@lowers(aten.log_softmax, aten._log_softmax)
def _log_softmax(L, x, dim, *_):
    return L.op("log", [_softmax(L, x, dim)])


@lowers(aten.scaled_dot_product_attention)
def _sdpa(L, q, k, v, mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False):
    if q.rank != 4:
        raise Unsupported(f"scaled_dot_product_attention of rank-{q.rank} tensors")
    operands = [q, k, v]
    if mask is not None:
        if mask.dtype == "i1":  # True keeps a position: 0 there, the lowest value elsewhere
            mask = L.f.op("where", [mask, L.rank_to(L.full(0.0, q.dtype, 1), mask.rank),
                                    L.rank_to(L.full(-torch.finfo(torch.float32).max, q.dtype, 1), mask.rank)],
                          mask.shape, q.dtype)
        mask = L.cast(L.rank_to(mask, 4), q.dtype)
        b, h, sq, sk = q.shape[0], mask.shape[1], q.shape[2], k.shape[2]
        operands.append(L.broadcast_to(mask, (b, h, sq, sk)))
    attrs = {"is_causal": "true" if is_causal else "false",
             "operandSegmentSizes": darray("i32", [1, 1, 1, int(mask is not None), 0])}
    if scale is not None:
        attrs["scale"] = f"{float_text(scale)} : f32"
    return L.op("scaled_dot_product_attention", operands, attrs=attrs)


# data movement


@lowers(aten.view, aten.reshape, aten._unsafe_view, aten.flatten, aten.unflatten, aten.view_copy)
def _reshape(L, x, *_):
    return L.reshape(x, L.oshape())


@lowers(aten.squeeze, aten.unsqueeze)
def _squeeze(L, x, *_):
    return L.reshape(x, L.oshape())


@lowers(aten.permute)
def _permute(L, x, perm):
    return L.permute(x, perm)


@lowers(aten.transpose)
def _transpose(L, x, d0, d1):
    perm = list(range(x.rank))
    perm[d0 % x.rank], perm[d1 % x.rank] = perm[d1 % x.rank], perm[d0 % x.rank]
    return L.permute(x, perm)


@lowers(aten.expand, aten.expand_copy)
def _expand(L, x, *_):
    return L.broadcast_to(x, L.oshape())


@lowers(aten.repeat)
def _repeat(L, x, repeats):
    x = L.rank_to(x, len(repeats))
    return L.op("repeat", [x], attrs={"repeat_dimensions": darray("i64", repeats)})


@lowers(aten.cat, aten.concat)
def _cat(L, xs, dim=0):
    xs = [x for x in xs if math.prod(x.shape) > 0]
    if len(xs) == 1:
        return xs[0]
    dtype = L.odtype()
    return L.op("concat", [L.cast(x, dtype) for x in xs], attrs={"dim": f"{dim % len(L.oshape())} : si32"})


@lowers(aten.slice, aten.slice_copy)
def _slice(L, x, dim=0, start=None, end=None, step=1):
    size = x.shape[dim % x.rank]
    start, end = slice(start, end, step).indices(size)[:2]
    end = max(end, start)
    return L.slice(x, dim, start, end, step)


@lowers(aten.slice_scatter)
def _slice_scatter(L, x, src, dim=0, start=None, end=None, step=1):
    """`x` with a slice replaced by `src` (a slice's gradient, mostly): the parts of `x` around it, concatenated."""
    if step != 1:
        raise Unsupported("slice_scatter with a step")
    dim %= x.rank
    start, end = slice(start, end).indices(x.shape[dim])[:2]
    parts = ([L.slice(x, dim, 0, start)] if start > 0 else []) + [src] + \
        ([L.slice(x, dim, end, x.shape[dim])] if end < x.shape[dim] else [])
    return parts[0] if len(parts) == 1 else L.op("concat", parts, attrs={"dim": f"{dim} : si32"})


@lowers(aten.narrow)
def _narrow(L, x, dim, start, length):
    start %= x.shape[dim % x.rank] if start < 0 else start + 1
    return L.slice(x, dim, start, start + length)


@lowers(aten.select)
def _select(L, x, dim, index):
    index %= x.shape[dim % x.rank]
    return L.reshape(L.slice(x, dim, index, index + 1), L.oshape())


@lowers(aten.split, aten.split_with_sizes)
def _split(L, x, sizes, dim=0):
    dim %= x.rank
    if isinstance(sizes, int):
        sizes = [min(sizes, x.shape[dim] - s) for s in range(0, x.shape[dim], sizes)]
    parts, start = [], 0
    for s in sizes:
        parts.append(L.slice(x, dim, start, start + s))
        start += s
    return tuple(parts)


@lowers(aten.unbind)
def _unbind(L, x, dim=0):
    dim %= x.rank
    shape = x.shape[:dim] + x.shape[dim + 1:]
    return tuple(L.reshape(L.slice(x, dim, i, i + 1), shape) for i in range(x.shape[dim]))


@lowers(aten.constant_pad_nd)
def _pad(L, x, pad, value=0.0):
    if any(p < 0 for p in pad):
        raise Unsupported("negative padding")
    padding = [0] * (2 * x.rank)
    for i in range(len(pad) // 2):  # torch pads the last dimension first
        d = x.rank - 1 - i
        padding[2 * d], padding[2 * d + 1] = pad[2 * i], pad[2 * i + 1]
    return L.op("pad", [x], attrs={"padding": darray("i32", padding), "value": f"{float_text(value)} : f32"})


@lowers(aten.embedding)
def _embedding(L, w, idx, *_):
    return L.op("embedding", [idx, w])


@lowers(aten.embedding_dense_backward)
def _embedding_dense_backward(L, grad, idx, num_weights, padding_idx=-1, scale_grad_by_freq=False):
    """The embedding table's gradient: each index's gradient row summed into its row (ttir.embedding_backward,
    whose weight operand gives the table's shape)."""
    if scale_grad_by_freq or padding_idx not in (-1, None):
        raise Unsupported("embedding backward with scale_grad_by_freq or a padding_idx")
    shape = (int(num_weights), grad.shape[-1])
    table = L.op("zeros", [], shape, dtype=grad.dtype, attrs={"shape": darray("i32", shape)})
    return L.op("embedding_backward", [idx, table, grad], shape, dtype=grad.dtype)


@lowers(aten.index_select)
def _index_select(L, x, dim, idx):
    dim %= x.rank
    rows = L.permute(x, [dim] + [d for d in range(x.rank) if d != dim])
    table = L.reshape(rows, (x.shape[dim], math.prod(rows.shape[1:])))
    picked = L.op("embedding", [idx, table], (idx.shape[0], table.shape[1]), dtype=x.dtype)
    picked = L.reshape(picked, (idx.shape[0], *rows.shape[1:]))
    inverse = [0] * x.rank
    for i, d in enumerate([dim] + [d for d in range(x.rank) if d != dim]):
        inverse[d] = i
    return L.permute(picked, inverse)


@lowers(aten.index)
def _index(L, x, indices):
    """x[i0, i1, ...] (advanced indexing; None keeps a whole dimension): the indexed dimensions become the rows of
    a table, the index tensors (broadcast together) one row number each, and an embedding picks the rows."""
    indices = list(indices) + [None] * (x.rank - len(indices))
    dims = [d for d, i in enumerate(indices) if i is not None]
    if not dims or any(not isinstance(indices[d], Value) or indices[d].dtype == "i1" for d in dims):
        raise Unsupported("index with boolean index tensors (a data-dependent shape)")
    rest = [d for d in range(x.rank) if d not in dims]
    batch = tuple(torch.broadcast_shapes(*(torch.Size(indices[d].shape) for d in dims)))
    n_rows, width = math.prod(x.shape[d] for d in dims), math.prod(x.shape[d] for d in rest)
    table = L.reshape(L.permute(x, dims + rest), (n_rows, width))
    row, stride = None, n_rows
    for d in dims:  # row = sum of index * (the product of the indexed sizes after it)
        stride //= x.shape[d]
        idx = L.broadcast_to(indices[d], batch)
        if stride != 1:
            idx = L.f.op("multiply", [idx, L.broadcast_to(L.full(stride, idx.dtype, len(batch)), batch)], batch,
                         idx.dtype)
        row = idx if row is None else L.f.op("add", [row, idx], batch, idx.dtype)
    count = math.prod(batch)
    picked = L.op("embedding", [L.reshape(row, (1, count)), table], (1, count, width), dtype=x.dtype)
    picked = L.reshape(picked, (*batch, *(x.shape[d] for d in rest)))
    if dims == list(range(dims[0], dims[-1] + 1)) and dims[0] > 0:
        # indexed dims side by side stay in their place, after the whole dims before them (apart: they go first)
        b, lead = len(batch), dims[0]
        picked = L.permute(picked, [*range(b, b + lead), *range(b), *range(b + lead, b + len(rest))])
    return L.reshape(picked, L.oshape())


@lowers(aten.gather)
def _gather(L, x, dim, idx, sparse_grad=False):
    return L.op("gather", [x, idx], attrs={"dim": f"{dim % x.rank} : i32"})


@lowers(aten.scatter)
def _scatter(L, x, dim, idx, src, reduce=None):
    if reduce is not None:
        raise Unsupported(f"scatter reduce={reduce}")
    src = L.tensor(src, x.dtype, idx.rank)
    src = L.broadcast_to(src, idx.shape)
    return L.op("scatter", [x, idx, src], attrs={"dim": f"{dim % x.rank} : i32",
                                                 "scatter_reduce_type": "#ttcore.reduce_type<invalid>"})


# reductions


REDUCE = {aten.sum: "sum", aten.mean: "mean", aten.amax: "max", aten.amin: "min", aten.prod: "prod"}


def _reduce(L, name, x, dims, keepdim):
    dims = sorted({d % x.rank for d in (dims if dims else range(x.rank))})
    kept = tuple(1 if d in dims else s for d, s in enumerate(x.shape))
    y = L.op(name, [x], kept, dtype=L.odtype(),
             attrs={"dim_arg": i32s(dims), "keep_dim": "true"})
    return L.reshape(y, L.oshape() or (1,))


@lowers(aten.any, aten.all)
def _any_all(L, x, dims=None, keepdim=False):
    """any / all over dims: (x != 0) as 0/1 floats, their max / min above one half (TTNN has no logical
    reductions)."""
    if isinstance(dims, int):
        dims = [dims]
    dims = sorted({d % x.rank for d in (dims if dims else range(x.rank))})
    kept = tuple(1 if d in dims else n for d, n in enumerate(x.shape))
    zero = L.broadcast_to(L.full(0, x.dtype, x.rank), x.shape)
    nonzero = L.cast(L.f.op("ne", [x, zero], x.shape, "i1"), "f32")
    name = "max" if L.node.target.overloadpacket is aten.any else "min"
    extreme = L.f.op(name, [nonzero], kept, "f32", {"dim_arg": i32s(dims), "keep_dim": "true"})
    half = L.broadcast_to(L.full(0.5, "f32", len(kept)), kept)
    return L.reshape(L.f.op("gt", [extreme, half], kept, "i1"), L.oshape())


@lowers(*REDUCE)
def _reduction(L, x, dims=None, keepdim=False, *_args, **_kwargs):
    if isinstance(dims, int):
        dims = [dims]
    if dims is not None and not isinstance(dims, (list, tuple)):
        dims = None  # sum(x, dtype)
    x = L.cast(x, L.odtype())
    return _reduce(L, REDUCE[L.node.target.overloadpacket], x, dims, keepdim)


@lowers(aten.var, aten.std)
def _var(L, x, dims=None, unbiased=None, keepdim=False, correction=None):
    if isinstance(dims, int):
        dims = [dims]
    dims = sorted({d % x.rank for d in (dims if dims else range(x.rank))})
    count = math.prod(x.shape[d] for d in dims)
    correction = (1 if unbiased in (None, True) else 0) if correction is None else correction
    kept = tuple(1 if d in dims else s for d, s in enumerate(x.shape))
    mean = L.op("mean", [x], kept, attrs={"dim_arg": i32s(dims), "keep_dim": "true"})
    centred = L.f.op("subtract", [x, mean], x.shape, x.dtype)
    squares = L.f.op("multiply", [centred, centred], x.shape, x.dtype)
    total = L.op("sum", [squares], kept, attrs={"dim_arg": i32s(dims), "keep_dim": "true"})
    var = L.f.op("multiply", [total, L.full(1.0 / max(count - correction, 1), x.dtype, x.rank)], kept, x.dtype)
    if L.node.target.overloadpacket is aten.std:
        var = L.f.op("sqrt", [var], kept, x.dtype)
    return L.reshape(var, L.oshape() or (1,))


@lowers(aten.argmax)
def _argmax(L, x, dim=None, keepdim=False):
    if dim is None:
        x, dim = L.reshape(x, (math.prod(x.shape),)), 0
    dim %= x.rank
    kept = tuple(1 if d == dim else s for d, s in enumerate(x.shape))
    y = L.op("argmax", [x], kept, dtype="i32", attrs={"dim_arg": i32s([dim]), "keep_dim": "true"})
    return L.cast(L.reshape(y, L.oshape() or (1,)), L.odtype())


@lowers(aten.max, aten.min)
def _max(L, x, dim=None, keepdim=False):
    name = "max" if L.node.target.overloadpacket is aten.max else "min"
    if dim is None:
        return _reduce(L, name, x, None, False)
    if name == "min":
        raise Unsupported("min with indices")
    values_meta, indices_meta = L.meta
    L.meta = values_meta
    values = _reduce(L, name, x, [dim], keepdim)
    L.meta = indices_meta
    return values, _argmax(L, x, dim, keepdim)


@lowers(aten.topk)
def _topk(L, x, k, dim=-1, largest=True, sorted=True):
    values_meta, indices_meta = L.meta
    shape = tuple(values_meta.shape)
    values, indices = L.f.op("topk", [x], shape, x.dtype,
                             {"k": f"{int(k)} : i32", "dim": f"{int(dim)} : i32",
                              "largest": "true" if largest else "false", "sorted": "true" if sorted else "false"},
                             result_types=[(shape, x.dtype), (shape, "i32")])
    return values, L.cast(indices, mlir_dtype(indices_meta.dtype))


@lowers(aten.sort)
def _sort(L, x, dim=-1, descending=False, stable=False):
    values_meta, indices_meta = L.meta
    values, indices = L.f.op("sort", [x], x.shape, x.dtype,
                             {"dim": f"{int(dim)} : si32", "descending": "true" if descending else "false"},
                             result_types=[(x.shape, x.dtype), (x.shape, "i32")])
    return values, L.cast(indices, mlir_dtype(indices_meta.dtype))


@lowers(aten.cumsum)
def _cumsum(L, x, dim, dtype=None):
    return L.op("cumsum", [L.cast(x, L.odtype())], attrs={"dim": f"{dim % x.rank} : i64"})


# creation (when a graph makes a tensor the device can make itself)


@lowers(aten.full, aten.zeros, aten.ones, aten.full_like, aten.zeros_like, aten.ones_like, aten.new_ones,
        aten.new_zeros, aten.scalar_tensor)
def _full(L, *args, **_kwargs):
    target = L.node.target.overloadpacket
    value = {aten.zeros: 0, aten.zeros_like: 0, aten.new_zeros: 0, aten.ones: 1, aten.ones_like: 1,
             aten.new_ones: 1}.get(target)
    if value is None:
        value = args[0] if target is aten.scalar_tensor else args[1]
    shape = L.oshape() or (1,)
    number = f"{int(value)} : i32" if L.odtype() in ("i64", "i32", "i1") else f"{float_text(value)} : f32"
    return L.op("full", [], shape, attrs={"fill_value": number, "shape": darray("i32", shape)})


@lowers(aten.arange)
def _arange(L, *args, **_kwargs):
    numbers = [a for a in args if isinstance(a, (int, float))]
    start, end, step = (0, numbers[0], 1) if len(numbers) == 1 else (*numbers[:2], numbers[2] if len(numbers) > 2 else 1)
    if any(float(v) != int(v) for v in (start, end, step)):
        raise Unsupported("arange with fractional bounds")
    return L.op("arange", [], attrs={"start": f"{int(start)} : si64", "end": f"{int(end)} : si64",
                                     "step": f"{int(step)} : si64", "arange_dimension": "0 : i64"})


@lowers(operator.getitem)
def _getitem(L, values, index):
    if not isinstance(values, (tuple, list)) or values[index] is None:
        raise Unsupported("getitem of a value the device does not compute")
    return values[index]
