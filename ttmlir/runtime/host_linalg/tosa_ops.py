"""TOSA ops on numpy arrays: one function per op, in a table keyed by the op's name."""

from __future__ import annotations

import numpy as np

from ttmlir.runtime.host_linalg.scalar_ops import UNARY as MATH
from ttmlir.runtime.host_linalg.values import dense, store

UNARY = {"abs": np.abs, "bitwise_not": np.invert, "ceil": np.ceil, "cos": np.cos, "erf": MATH["math.erf"],
         "exp": np.exp, "floor": np.floor, "log": np.log, "logical_not": np.logical_not,
         "reciprocal": lambda x: 1 / x, "rsqrt": lambda x: 1 / np.sqrt(x), "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
         "sin": np.sin, "tanh": np.tanh}
BINARY = {"add": np.add, "sub": np.subtract, "maximum": np.maximum, "minimum": np.minimum, "pow": np.power,
          "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
          "logical_and": np.logical_and, "logical_or": np.logical_or, "logical_xor": np.logical_xor,
          "logical_left_shift": np.left_shift, "equal": np.equal, "greater": np.greater,
          "greater_equal": np.greater_equal, "intdiv": lambda a, b: np.trunc(a / b).astype(np.asarray(a).dtype),
          "logical_right_shift": lambda a, b: (np.asarray(a).astype(f"u{np.asarray(a).dtype}") >> b).astype(
              np.asarray(a).dtype) if np.asarray(a).dtype.kind == "i" else a >> b,
          "arithmetic_right_shift": np.right_shift}
REDUCE = {"reduce_sum": np.sum, "reduce_max": np.max, "reduce_min": np.min, "reduce_product": np.prod,
          "reduce_all": np.all, "reduce_any": np.any}


def _attr_ints(op, name):
    return [int(v) for v in op.properties[name].get_values()]


def _mul(op, a, b, shift):
    shift = int(np.asarray(shift).reshape(-1)[0])
    if shift == 0:
        return np.multiply(a, b)
    product = np.asarray(a, np.int64) * np.asarray(b, np.int64)  # TOSA rounds a shifted product half up
    return (product + (1 << (shift - 1))) >> shift


def _cast(op, x):
    t = op.results[0].type.element_type
    x = np.asarray(x)
    if x.dtype.kind == "f" and np.dtype(store(np.zeros(1), t).dtype).kind in "iu":
        info = np.iinfo(store(np.zeros(1), t).dtype)
        return np.clip(np.rint(x), info.min, info.max)  # TOSA rounds to nearest even and saturates
    if x.dtype == np.bool_ or store(np.zeros(1), t).dtype == np.bool_:
        return x != 0
    return x


def _clamp(op, x):
    low, high = (op.properties[n].value.data for n in ("min_val", "max_val"))
    return np.clip(x, low, high)


def _windows(x, kernel, stride, dilation, out_hw):
    """[N, OH, OW, KH, KW, C] views of the NHWC `x` (already padded)."""
    n, h, w, c = x.shape
    sn, sh, sw, sc = x.strides
    view = np.lib.stride_tricks.as_strided(
        x, (n, out_hw[0], out_hw[1], kernel[0], kernel[1], c),
        (sn, sh * stride[0], sw * stride[1], sh * dilation[0], sw * dilation[1], sc), writeable=False)
    return view


def _pool(op, x, *_zero_points):
    kernel, stride, pad = _attr_ints(op, "kernel"), _attr_ints(op, "stride"), _attr_ints(op, "pad")
    out_hw = op.results[0].type.get_shape()[1:3]
    fill = -np.inf if op.name == "tosa.max_pool2d" and x.dtype.kind == "f" else \
        np.iinfo(x.dtype).min if op.name == "tosa.max_pool2d" else 0
    padded = np.pad(x, ((0, 0), (pad[0], pad[1]), (pad[2], pad[3]), (0, 0)), constant_values=fill)
    view = _windows(padded, kernel, stride, (1, 1), out_hw)
    if op.name == "tosa.max_pool2d":
        return view.max(axis=(3, 4))
    ones = np.pad(np.ones(x.shape[:3] + (1,), np.float32), ((0, 0), (pad[0], pad[1]), (pad[2], pad[3]), (0, 0)))
    counts = _windows(ones, kernel, stride, (1, 1), out_hw).sum(axis=(3, 4))
    return view.astype(np.float64).sum(axis=(3, 4)) / counts


def _conv2d(op, x, weight, bias, *_zero_points):
    pad, stride, dilation = _attr_ints(op, "pad"), _attr_ints(op, "stride"), _attr_ints(op, "dilation")
    out_hw = op.results[0].type.get_shape()[1:3]
    padded = np.pad(x, ((0, 0), (pad[0], pad[1]), (pad[2], pad[3]), (0, 0)))
    view = _windows(padded.astype(np.float64), weight.shape[1:3], stride, dilation, out_hw)
    return np.einsum("nhwijc,oijc->nhwo", view, weight.astype(np.float64)) + bias.reshape(-1)


def _slice(op, x, start, size):
    return x[tuple(slice(b, b + s) for b, s in zip(start, size))]


def _pad(op, x, padding, pad_const):
    value = np.asarray(pad_const).reshape(-1)[0]
    return np.pad(x, [(padding[2 * i], padding[2 * i + 1]) for i in range(x.ndim)], constant_values=value)


def _matmul(op, a, b, *_zero_points):
    wide = np.float64 if a.dtype.kind == "f" else np.int64
    return np.matmul(a.astype(wide), b.astype(wide))


def run_tosa_op(op, args):
    """The TOSA op's result (stored in its result type)."""
    kind = op.name.split(".", 1)[1]
    t = op.results[0].type
    if kind == "const":
        return dense(op.properties["values"])
    if kind == "const_shape":
        return tuple(int(v) for v in dense(op.properties["values"]))
    with np.errstate(all="ignore"):
        value = _compute(op, kind, args)
    return store(value, t.element_type)


def _compute(op, kind, args):
    if kind in UNARY:
        return UNARY[kind](args[0])
    if kind in BINARY:
        return BINARY[kind](args[0], args[1])
    if kind in REDUCE:
        return REDUCE[kind](args[0], axis=op.properties["axis"].value.data, keepdims=True)
    table = {"mul": lambda: _mul(op, *args), "negate": lambda: -args[0], "cast": lambda: _cast(op, args[0]),
             "clamp": lambda: _clamp(op, args[0]), "select": lambda: np.where(args[0], args[1], args[2]),
             "reshape": lambda: np.reshape(args[0], args[1]),
             "transpose": lambda: np.transpose(args[0], _attr_ints(op, "perms")),
             "tile": lambda: np.tile(args[0], args[1]),
             "concat": lambda: np.concatenate(args, axis=op.properties["axis"].value.data),
             "pad": lambda: _pad(op, *args), "slice": lambda: _slice(op, *args),
             "argmax": lambda: np.argmax(args[0], axis=op.properties["axis"].value.data),
             "matmul": lambda: _matmul(op, *args), "max_pool2d": lambda: _pool(op, *args),
             "avg_pool2d": lambda: _pool(op, *args), "conv2d": lambda: _conv2d(op, *args)}
    if kind not in table:
        raise ValueError(f"'{op.name}' has no host kernel")
    return table[kind]()

