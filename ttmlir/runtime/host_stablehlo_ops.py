"""The host's StableHLO ops without regions: element types (how each StableHLO type is held in torch), the
elementwise ops with the spec's integer, boolean and float rules, shapes and data movement, linear algebra,
transforms and random bits. `VALUE_OPS` maps each op name to its implementation `(op, *operands) -> result(s)`;
`ttmlir.runtime.host_stablehlo_regions` adds the ops with regions."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import torch
from xdsl.dialects.builtin import (BFloat16Type, ComplexType, Float16Type, Float32Type, Float64Type, IntegerType,
                                   Signedness, TensorType)

from ttmlir.dialects.ttcore import TO_DEVICE_TYPE
from ttmlir.runtime import RuntimeFailure


# ---------------------------------------------------------------------------------------------------------------
# Element types


@dataclass(frozen=True)
class Elem:
    kind: str  # "bool" | "int" | "uint" | "float" | "complex"
    width: int
    dtype: torch.dtype  # how the host holds it


FLOATS = {BFloat16Type: torch.bfloat16, Float16Type: torch.float16, Float32Type: torch.float32,
          Float64Type: torch.float64}
SIGNED_BITS = {8: torch.int8, 16: torch.int16, 32: torch.int32, 64: torch.int64}  # an integer's bit pattern


@lru_cache(maxsize=None)
def elem_of(t) -> Elem:
    t = t.element_type if isinstance(t, TensorType) else t
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return Elem("bool", 1, torch.bool)
        return Elem("uint" if t.signedness.data == Signedness.UNSIGNED else "int", width, torch.int64)
    if type(t) in FLOATS:
        return Elem("float", t.bitwidth, FLOATS[type(t)])
    if isinstance(t, ComplexType):
        part = FLOATS[type(t.element_type)]
        return Elem("complex", 2 * t.element_type.bitwidth, torch.complex128 if part == torch.float64 else
                    torch.complex64)
    raise RuntimeFailure(f"the host has no element type {t}")


def wrap(x: torch.Tensor, e: Elem) -> torch.Tensor:
    """An integer result reduced to its type's width (two's complement wrap-around, as the spec's integers)."""
    if e.kind == "int" and e.width < 64:
        half = 1 << (e.width - 1)
        return ((x + half) & ((1 << e.width) - 1)) - half
    if e.kind == "uint" and e.width < 64:
        return x & ((1 << e.width) - 1)
    return x


def _mask(e: Elem) -> int:
    return -1 if e.width == 64 else (1 << e.width) - 1


def coerce(x: torch.Tensor, e: Elem) -> torch.Tensor:
    """A value in the host's form of type `e` (the device may hand over a wider or normalized type)."""
    if e.kind == "bool":
        return x != 0
    if e.kind in ("int", "uint"):
        if x.is_floating_point():
            x = torch.round(x)
        return wrap(x.to(torch.int64), e)
    return x.to(e.dtype)


def unsigned_key(x: torch.Tensor, e: Elem) -> torch.Tensor:
    """Values whose signed order is `e`'s order (a ui64's bit pattern with the sign bit flipped)."""
    return x ^ torch.iinfo(torch.int64).min if e.kind == "uint" and e.width == 64 else x


def total_order_key(x: torch.Tensor) -> torch.Tensor:
    """Integers ordered as IEEE-754's totalOrder orders the floats: -NaN < -inf < .. < -0 < +0 < .. < inf < NaN."""
    bits = x.to(torch.float64).view(torch.int64) if x.dtype != torch.float64 else x.view(torch.int64)
    return torch.where(bits < 0, bits ^ torch.iinfo(torch.int64).max, bits)


def _as_float(fn):
    """`fn` computed in f32 for 16-bit floats and rounded back (XLA's CPU computes them so)."""
    def run(x, *rest):
        if x.dtype in (torch.float16, torch.bfloat16):
            return fn(x.float(), *(r.float() if torch.is_tensor(r) else r for r in rest)).to(x.dtype)
        return fn(x, *rest)
    return run


def result_elem(op, index: int = 0) -> Elem:
    return elem_of(op.results[index].type)


def operand_elem(op, index: int = 0) -> Elem:
    return elem_of(op.operands[index].type)


# ---------------------------------------------------------------------------------------------------------------
# Elementwise ops


def _bits(x: torch.Tensor, e: Elem) -> torch.Tensor:
    """An integer's `e.width`-bit pattern as a non-negative int64 (all 64 bits for 64-bit types)."""
    return x & _mask(e) if e.width < 64 else x


def _logical_shift_right(x: torch.Tensor, amount: torch.Tensor) -> torch.Tensor:
    """A 64-bit pattern shifted right filling zeros (torch shifts int64 arithmetically)."""
    amount = amount.clamp(0, 63)
    some = amount.clamp(min=1)
    return torch.where(amount == 0, x, (x >> some) & ((torch.ones_like(x) << (64 - some)) - 1))


def clz(op, x):
    e = operand_elem(op)
    bits, count = _bits(x, e), torch.zeros_like(x)
    seen = torch.zeros_like(x, dtype=torch.bool)
    for b in range(e.width - 1, -1, -1):  # the leading zeros before the highest set bit
        bit = _logical_shift_right(bits, torch.full_like(x, b)) & 1 if b == 63 else (bits >> b) & 1
        seen |= bit.bool()
        count += (~seen).long()
    return count


def popcnt(op, x):
    e = operand_elem(op)
    bits, count = _bits(x, e), torch.zeros_like(x)
    for b in range(e.width):
        count += (_logical_shift_right(bits, torch.full_like(x, b)) if b else bits) & 1
    return count


def _round_afz(x):
    whole = torch.trunc(x)
    return torch.where((x - whole).abs() >= 0.5, whole + torch.sign(x), whole)


def _sign(x):
    return torch.where(torch.isnan(x) | (x == 0), x, torch.sign(x))


def _cbrt(x):
    return torch.sign(x) * x.abs().pow(1.0 / 3.0)


FLOAT_UNARY = {"cbrt": _cbrt, "ceil": torch.ceil, "cosine": torch.cos, "exponential": torch.exp,
               "exponential_minus_one": torch.expm1, "floor": torch.floor, "log": torch.log,
               "log_plus_one": torch.log1p, "logistic": torch.sigmoid, "round_nearest_afz": _round_afz,
               "round_nearest_even": torch.round, "rsqrt": torch.rsqrt, "sine": torch.sin, "sqrt": torch.sqrt,
               "tan": torch.tan, "tanh": torch.tanh}


def float_unary(op, x):
    return _as_float(FLOAT_UNARY[op.name.removeprefix("stablehlo.")])(x)


def abs_(op, x):
    e = operand_elem(op)
    if e.kind == "complex":
        return x.abs().to(result_elem(op).dtype)
    return wrap(x.abs(), e) if e.kind == "int" else x.abs()


def negate(op, x):
    e = result_elem(op)
    return wrap(-x, e) if e.kind in ("int", "uint") else -x


def not_(op, x):
    e = result_elem(op)
    return ~x if e.kind == "bool" else wrap(~x, e)


def sign(op, x):
    e = result_elem(op)
    if e.kind == "complex":
        return torch.where(x == 0, x, x / x.abs())
    return torch.sign(x) if e.kind in ("int", "uint") else _sign(x)


def is_finite(op, x):
    return torch.isfinite(x)


def real(op, x):
    return x.real.clone() if x.is_complex() else x


def imag(op, x):
    return x.imag.clone() if x.is_complex() else torch.zeros_like(x)


def complex_(op, re, im):
    return torch.complex(re, im).to(result_elem(op).dtype)


def _arith(name: str, bool_fn, int_fn, float_fn):
    def run(op, x, y):
        e = result_elem(op)
        if e.kind == "bool":
            if bool_fn is None:
                raise RuntimeFailure(f"'{op.name}' has no meaning on booleans")
            return bool_fn(x, y)
        if e.kind in ("int", "uint"):
            return wrap(int_fn(x, y, e), e)
        return _as_float(float_fn)(x, y) if e.kind == "float" else float_fn(x, y)
    run.__name__ = name
    return run


def _int_divide(x, y, e):
    if e.kind == "uint" and e.width == 64:
        return _u64(np.floor_divide, x, y, fill=-1)
    zero = y == 0
    q = torch.div(x, torch.where(zero, torch.ones_like(y), y), rounding_mode="trunc")
    return torch.where(zero, torch.full_like(x, _mask(e) if e.kind == "uint" else -1), q)  # XLA's x / 0


def _int_remainder(x, y, e):
    if e.kind == "uint" and e.width == 64:
        return _u64(np.remainder, x, y, fill=None)
    zero = y == 0
    r = torch.fmod(x, torch.where(zero, torch.ones_like(y), y))  # the dividend's sign, as C's %
    return torch.where(zero, x, r)  # XLA's x % 0 is x


def _u64(fn, x, y, fill):
    """An unsigned 64-bit division (numpy computes uint64); by zero: `fill` (all ones), or x for a remainder."""
    ux, uy = np.broadcast_arrays(x.numpy().view(np.uint64), y.numpy().view(np.uint64))
    zero = uy == 0
    out = fn(ux, np.where(zero, np.uint64(1), uy))
    out = np.where(zero, ux if fill is None else np.uint64(2 ** 64 - 1), out)
    return torch.from_numpy(np.ascontiguousarray(out).view(np.int64))


def _int_power(x, y, e):
    """Exponentiation by squaring in the type's width; a negative exponent gives 0 but for bases 1 and -1."""
    result, base, exp = torch.ones_like(x), x.clone(), y.clone()
    negative = (exp < 0) if e.kind == "int" else torch.zeros_like(exp, dtype=torch.bool)
    exp = torch.where(negative, torch.zeros_like(exp), exp)
    for _ in range(e.width):
        result = wrap(torch.where(exp & 1 == 1, result * base, result), e)
        base, exp = wrap(base * base, e), _logical_shift_right(exp, torch.ones_like(exp))
    small = torch.where(x == 1, torch.ones_like(x), torch.where(x == -1, torch.where(y % 2 == 0, 1, -1) * torch.ones_like(x),
                                                                 torch.zeros_like(x)))
    return torch.where(negative, small, result)


def _minmax(pick):
    def run(op, x, y):
        e = result_elem(op)
        if e.kind == "bool":
            return (x | y) if pick is torch.maximum else (x & y)
        if e.kind == "complex":  # lexicographic on (real, imag)
            first = (x.real > y.real) | ((x.real == y.real) & (x.imag > y.imag))
            return torch.where(first if pick is torch.maximum else ~first, x, y)
        if e.kind == "uint" and e.width == 64:
            kx, ky = unsigned_key(x, e), unsigned_key(y, e)
            return torch.where(pick(kx, ky) == kx, x, y)
        return pick(x, y)  # floats: a NaN operand gives NaN
    return run


def _shift(kind: str):
    def run(op, x, y):
        e = result_elem(op)
        amount = _bits(y, e)  # the amount read as unsigned: a negative one is past the width
        past = (amount >= e.width) | (amount < 0)
        amount = torch.where(past, torch.zeros_like(amount), amount)
        if kind == "left":
            return wrap(torch.where(past, torch.zeros_like(x), x << amount), e)
        if kind == "logical":
            shifted = _logical_shift_right(_bits(x, e), amount) if e.width == 64 else _bits(x, e) >> amount
            return wrap(torch.where(past, torch.zeros_like(x), shifted), e)
        signed = wrap(x, Elem("int", e.width, torch.int64))  # the pattern read as signed: its sign fills
        return wrap(torch.where(past, torch.where(signed < 0, -1, 0) * torch.ones_like(x), signed >> amount), e)
    return run


def _bitwise(bool_fn, int_fn):
    def run(op, x, y):
        e = result_elem(op)
        return bool_fn(x, y) if e.kind == "bool" else wrap(int_fn(x, y), e)
    return run


def _float_remainder(x, y):
    return torch.fmod(x, y)


def _float_power(x, y):
    return torch.pow(x, y)


BINARY = {
    "add": _arith("add", torch.logical_or, lambda x, y, e: x + y, torch.add),
    "subtract": _arith("subtract", None, lambda x, y, e: x - y, torch.sub),
    "multiply": _arith("multiply", torch.logical_and, lambda x, y, e: x * y, torch.mul),
    "divide": _arith("divide", None, _int_divide, torch.div),
    "remainder": _arith("remainder", None, _int_remainder, _float_remainder),
    "power": _arith("power", None, _int_power, _float_power),
    "atan2": _arith("atan2", None, None, torch.atan2),
    "maximum": _minmax(torch.maximum), "minimum": _minmax(torch.minimum),
    "and": _bitwise(torch.logical_and, torch.bitwise_and), "or": _bitwise(torch.logical_or, torch.bitwise_or),
    "xor": _bitwise(torch.logical_xor, torch.bitwise_xor),
    "shift_left": _shift("left"), "shift_right_logical": _shift("logical"),
    "shift_right_arithmetic": _shift("arithmetic"),
}

COMPARE = {"EQ": torch.eq, "NE": torch.ne, "GE": torch.ge, "GT": torch.gt, "LE": torch.le, "LT": torch.lt}


def compare(op, x, y):
    e = operand_elem(op)
    kind = op.attr("compare_type")
    kind = kind.data if kind is not None else None
    if e.kind == "float" and kind == "TOTALORDER":
        x, y = total_order_key(x), total_order_key(y)
    elif e.kind == "uint":
        x, y = unsigned_key(x, e), unsigned_key(y, e)
    elif e.kind == "complex" and op.attr("comparison_direction").data not in ("EQ", "NE"):
        x, y = x.real, y.real
    return COMPARE[op.attr("comparison_direction").data](x, y)


def select(op, pred, on_true, on_false):
    return torch.where(pred, on_true, on_false)


def clamp(op, low, x, high):
    return BINARY["minimum"](op, BINARY["maximum"](op, x, low), high)


def convert(op, x):
    src, dst = operand_elem(op), result_elem(op)
    if dst.kind == "bool":
        return x != 0
    if src.kind == "bool":
        return x.to(dst.dtype)
    if dst.kind in ("int", "uint"):
        if src.kind in ("int", "uint"):
            if src.kind == "uint" and src.width == 64 and dst.width == 64:
                return x
            out = wrap(x, dst)
            # 8- and 16-bit integers are stored as their bit patterns (the wrap is meant); 64-bit ones in 32 bits
            if TO_DEVICE_TYPE in op.attributes and src.width > dst.width and (wrong := out != x).any():
                raise RuntimeFailure(f"a result value {int(x[wrong][0])} ({src.kind}{src.width}) does not fit "
                                     f"{dst.kind}{dst.width}, the type the device stores it in")
            return out
        if src.kind == "complex":
            x = x.real
        # floats saturate at the type's bounds and NaN becomes 0, as XLA converts
        low, high = (0, 2 ** dst.width - 1) if dst.kind == "uint" else (-2 ** (dst.width - 1), 2 ** (dst.width - 1) - 1)
        wide = x.to(torch.float64)
        out = torch.where(torch.isnan(wide), torch.zeros_like(wide), wide.clamp(low, high)).trunc()
        if dst.kind == "uint" and dst.width == 64:
            big = out >= 2.0 ** 63
            return torch.where(big, (out - 2.0 ** 64).to(torch.int64), out.clamp(max=2.0 ** 63 - 1).to(torch.int64))
        return out.to(torch.int64).clamp(low, high)
    if src.kind == "uint" and src.width == 64:
        as_float = x.to(torch.float64)
        return torch.where(x < 0, as_float + 2.0 ** 64, as_float).to(dst.dtype)
    if src.kind == "complex" and dst.kind == "float":
        return x.real.to(dst.dtype)
    return x.to(dst.dtype)


def _to_bits(x: torch.Tensor, e: Elem) -> torch.Tensor:
    """The value's bit pattern in a torch dtype of its width (integers as the signed dtype of that width)."""
    if e.kind in ("int", "uint"):
        return wrap(x, Elem("int", e.width, torch.int64)).to(SIGNED_BITS[e.width])
    if e.kind == "bool":
        return x.to(torch.uint8)
    return x.to(e.dtype).contiguous()


def _from_bits(x: torch.Tensor, e: Elem) -> torch.Tensor:
    if e.kind in ("int", "uint"):
        return wrap(x.to(torch.int64), e)
    if e.kind == "bool":
        return x != 0
    return x


def bitcast_convert(op, x):
    """The bits reread: the same width keeps the shape; a narrower result adds a last dimension of the ratio,
    a wider one removes it (little-endian, as XLA's CPU lays them out)."""
    src, dst = operand_elem(op), result_elem(op)
    if (src.kind == "bool") != (dst.kind == "bool"):
        return _bool_bitcast(x, src, dst)
    target = SIGNED_BITS[dst.width] if dst.kind in ("int", "uint") else torch.uint8 if dst.kind == "bool" else \
        dst.dtype
    bits = _to_bits(x, src)
    if src.width > dst.width:
        out = bits.unsqueeze(-1).view(target)
    elif src.width < dst.width:
        out = bits.contiguous().view(target).squeeze(-1)
    else:
        out = bits.view(target)
    return _from_bits(out, dst)


def _bool_bitcast(x: torch.Tensor, src: Elem, dst: Elem) -> torch.Tensor:
    """i1 elements are the bits of a wider value, lowest bit first, along a last dimension of the wider type's
    width."""
    if src.kind == "bool":
        packed = (x.to(torch.int64) << torch.arange(dst.width)).sum(-1).to(SIGNED_BITS[dst.width])
        return _from_bits(packed if dst.kind in ("int", "uint") else packed.view(dst.dtype), dst)
    bits = _to_bits(x, src)
    bits = (bits if src.kind in ("int", "uint") else bits.view(SIGNED_BITS[src.width])).to(torch.int64)
    return (bits.unsqueeze(-1) >> torch.arange(src.width)) & 1 != 0


def reduce_precision(op, x):
    """x rounded to `mantissa_bits` (to nearest even) and its exponent range cut to `exponent_bits`, bit by bit
    as XLA does: overflow becomes an infinity, underflow a signed zero; NaN stays NaN while mantissa bits
    remain."""
    exponent_bits, mantissa_bits = (int(op.attr(k).value.data) for k in ("exponent_bits", "mantissa_bits"))
    source = x.dtype
    wide = x.to(torch.float32) if source in (torch.float16, torch.bfloat16) else x
    n = 64 if wide.dtype == torch.float64 else 32
    src_mantissa, src_exponent = (52, 11) if n == 64 else (23, 8)
    v = wide.view(torch.int64 if n == 64 else torch.int32).to(torch.int64) & ((1 << n) - 1 if n < 64 else -1)
    if mantissa_bits < src_mantissa:
        last = 1 << (src_mantissa - mantissa_bits)
        bias = (last >> 1) - 1 + ((v & last) >> (src_mantissa - mantissa_bits))
        v = (v + bias) & ~(last - 1)
        if n < 64:
            v &= (1 << n) - 1
    if exponent_bits < src_exponent:
        sign_mask = 1 << (n - 1) if n < 64 else torch.iinfo(torch.int64).min
        exp_mask = ((1 << src_exponent) - 1) << src_mantissa
        bias = (1 << (src_exponent - 1)) - 1
        reduced = (1 << (exponent_bits - 1)) - 1
        exponent = v & exp_mask
        signed_zero = v & sign_mask
        v = torch.where(exponent > ((bias + reduced) << src_mantissa), signed_zero | exp_mask,
                        torch.where(exponent <= ((bias - reduced) << src_mantissa), signed_zero, v))
    if n == 32:
        v = torch.where(v >= 1 << 31, v - (1 << 32), v).to(torch.int32)
    out = v.view(torch.float32 if n == 32 else torch.float64)
    if mantissa_bits > 0:
        out = torch.where(torch.isnan(wide), wide, out)
    return out.to(source)


# ---------------------------------------------------------------------------------------------------------------
# Shapes and data movement


def shape_of(value) -> list[int]:
    return list(value.type.get_shape())


def attr_ints(op, name: str) -> list[int]:
    from ttmlir.dialects.stablehlo import ints_of
    attr = op.attr(name)
    return [] if attr is None else list(ints_of(attr))


def attr_int(op, name: str, default: int = 0) -> int:
    from ttmlir.dialects.stablehlo import int_of
    return int_of(op.attr(name), default)


def constant(op):
    attr, e = op.attr("value"), result_elem(op)
    values = attr.get_values()
    if e.kind == "complex":
        values = [complex(*v) if isinstance(v, tuple) else v for v in values]
    out = torch.tensor(values, dtype=e.dtype if e.kind != "uint" else torch.float64)
    if e.kind == "uint":  # a ui64 above 2**63 is kept as its bit pattern
        out = torch.tensor([v - (1 << 64) if v >= 1 << 63 else v for v in values], dtype=torch.int64)
    elif e.kind == "int":
        out = wrap(out, e)
    shape = shape_of(op.results[0])
    return out.reshape([]).expand(shape).clone() if out.numel() == 1 else out.reshape(shape)


def iota(op, *_):
    shape, dim, e = shape_of(op.results[0]), attr_int(op, "iota_dimension"), result_elem(op)
    along = torch.arange(shape[dim], dtype=torch.float64 if e.kind in ("float", "complex") else torch.int64)
    view = [1] * len(shape)
    view[dim] = shape[dim]
    return along.reshape(view).expand(shape).to(e.dtype).clone()


def reshape(op, x, *_):
    return x.reshape(shape_of(op.results[0]))


def broadcast_in_dim(op, x, *_):
    dims, out = attr_ints(op, "broadcast_dimensions"), shape_of(op.results[0])
    order = sorted(range(len(dims)), key=lambda i: dims[i])
    x = x.permute(order) if order != list(range(len(dims))) else x
    expanded = [1] * len(out)
    for i, d in enumerate(sorted(dims)):
        expanded[d] = x.shape[i]
    return x.reshape(expanded).expand(out).clone()


def broadcast(op, x):
    return x.expand(attr_ints(op, "broadcast_sizes") + list(x.shape)).clone()


def transpose(op, x):
    return x.permute(attr_ints(op, "permutation")).clone()


def reverse(op, x):
    dims = attr_ints(op, "dimensions")
    return x.flip(dims) if dims else x


def concatenate(op, *xs):
    return torch.cat(xs, attr_int(op, "dimension"))


def get_dimension_size(op, x):
    return torch.tensor(x.shape[attr_int(op, "dimension")], dtype=torch.int64)


def slice_(op, x):
    return x[tuple(slice(b, e, s) for b, e, s in zip(attr_ints(op, "start_indices"), attr_ints(op, "limit_indices"),
                                                       attr_ints(op, "strides")))].clone()


def dynamic_slice(op, x, *starts):
    sizes = attr_ints(op, "slice_sizes")
    at = [min(max(int(s), 0), n - w) for s, n, w in zip(starts, x.shape, sizes)]  # clamped inside, as the spec
    return x[tuple(slice(s, s + w) for s, w in zip(at, sizes))].clone()


def dynamic_update_slice(op, operand, update, *starts):
    out = operand.clone()
    at = [min(max(int(s), 0), n - w) for s, n, w in zip(starts, operand.shape, update.shape)]
    out[tuple(slice(s, s + w) for s, w in zip(at, update.shape))] = update.to(out.dtype)
    return out


def pad_interior(x: torch.Tensor, value: torch.Tensor, low, high, interior) -> torch.Tensor:
    """Interior padding spreads the elements apart; edge padding adds (or, negative, removes) at each end."""
    spread = [n + (n - 1) * g if n else 0 for n, g in zip(x.shape, interior)]
    full = [max(0, lo) + s + max(0, hi) for lo, s, hi in zip(low, spread, high)]
    out = value.reshape([]).expand(full).clone() if value.numel() == 1 else value.expand(full).clone()
    out[tuple(slice(max(0, lo), max(0, lo) + s, g + 1) for lo, s, g in zip(low, spread, interior))] = x
    return out[tuple(slice(-min(0, lo), f - (-min(0, hi))) for lo, hi, f in zip(low, high, full))].clone()


def pad(op, x, value):
    return pad_interior(x, value, attr_ints(op, "edge_padding_low"), attr_ints(op, "edge_padding_high"), attr_ints(op, "interior_padding"))


def _matmul_dtype(e: Elem) -> torch.dtype:
    return torch.float32 if e.dtype in (torch.float16, torch.bfloat16) else e.dtype


def dot_general(op, lhs, rhs):
    dims = op.attr("dot_dimension_numbers")
    lb, lc = list(dims.lhs_batching_dimensions), list(dims.lhs_contracting_dimensions)
    rb, rc = list(dims.rhs_batching_dimensions), list(dims.rhs_contracting_dimensions)
    return _dot(op, lhs, rhs, lb, lc, rb, rc)


def _dot(op, lhs, rhs, lb, lc, rb, rc):
    e = result_elem(op)
    letters = iter("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    ls = [next(letters) for _ in range(lhs.dim())]
    rs = [next(letters) for _ in range(rhs.dim())]
    for a, b in zip(lb + lc, rb + rc):
        rs[b] = ls[a]
    out = [ls[d] for d in lb] + [ls[d] for d in range(lhs.dim()) if d not in lb + lc] + \
        [rs[d] for d in range(rhs.dim()) if d not in rb + rc]
    spec = f"{''.join(ls)},{''.join(rs)}->{''.join(out)}"
    if e.kind in ("int", "uint", "bool"):
        value = torch.einsum(spec, lhs.to(torch.float64), rhs.to(torch.float64)) if e.kind == "bool" else None
        if value is not None:
            return value != 0
        # integer products summed exactly in int64 (einsum has no integer kernel on every build): by blocks
        prod = torch.einsum(spec, lhs.to(torch.int64), rhs.to(torch.int64))
        return wrap(prod, e)
    compute = _matmul_dtype(e)
    return torch.einsum(spec, lhs.to(compute), rhs.to(compute)).to(e.dtype)


def dot(op, lhs, rhs):
    return _dot(op, lhs, rhs, [], [lhs.dim() - 1], [], [0])


def einsum(op, lhs, rhs):
    return torch.einsum(op.attr("einsum_config").data, lhs, rhs)


def positions(shape) -> np.ndarray:
    """Every index of `shape`, one row per element in row-major order."""
    return np.indices(shape).reshape(len(shape), -1).T if shape else np.zeros((1, 0), dtype=np.int64)


def gather(op, operand, indices):
    """The spec's gather: each result index picks the operand element at start (clamped) + batching + offset."""
    d = op.attr("dimension_numbers")
    offset_dims, collapsed = list(d.offset_dims), list(d.collapsed_slice_dims)
    operand_batching, indices_batching = list(getattr(d, "operand_batching_dims", []) or []), \
        list(getattr(d, "start_indices_batching_dims", []) or [])
    start_map, ivd = list(d.start_index_map), d.index_vector_dim
    sizes = attr_ints(op, "slice_sizes")
    out_shape = shape_of(op.results[0])
    rank = len(out_shape)
    batch_dims = [i for i in range(rank) if i not in offset_dims]
    idx = indices.to(torch.int64).numpy()
    if ivd == idx.ndim:
        idx = idx[..., None]
    pos = positions(out_shape)
    batch = pos[:, batch_dims]
    # the start index vector of each result element: its batch index with the index vector dim spliced in
    per = np.moveaxis(idx, ivd, -1)
    starts = per[tuple(batch.T)] if batch.shape[1] else np.broadcast_to(per.reshape(-1), (len(pos), per.shape[-1]))
    full = np.zeros((len(pos), operand.dim()), dtype=np.int64)
    for i, d_op in enumerate(start_map):
        full[:, d_op] = np.clip(starts[:, i], 0, operand.shape[d_op] - sizes[d_op])
    for d_op, d_idx in zip(operand_batching, indices_batching):
        full[:, d_op] += batch[:, d_idx - (0 if d_idx < ivd else 1)]
    window_dims = [i for i in range(operand.dim()) if i not in collapsed and i not in operand_batching]
    for k, d_op in enumerate(window_dims):
        full[:, d_op] += pos[:, offset_dims[k]]
    picked = operand[tuple(torch.from_numpy(full.T.copy()))]
    return picked.reshape(out_shape)


# ---------------------------------------------------------------------------------------------------------------
# Linear algebra, transforms, random bits


def triangular_solve(op, a, b):
    left = bool(op.attr("left_side").value.data)
    lower = bool(op.attr("lower").value.data)
    unit = bool(op.attr("unit_diagonal").value.data)
    transpose = op.attr("transpose_a").data if op.attr("transpose_a") is not None else "NO_TRANSPOSE"
    e = result_elem(op)
    compute = _matmul_dtype(e) if e.kind == "float" else e.dtype
    a = (a.tril() if lower else a.triu()).to(compute)
    if unit:
        a = a - torch.diag_embed(a.diagonal(dim1=-2, dim2=-1)) + torch.eye(a.shape[-1], dtype=compute)
    if transpose != "NO_TRANSPOSE":
        a = a.mT.conj() if transpose == "ADJOINT" else a.mT
        lower = not lower
    return torch.linalg.solve_triangular(a, b.to(compute), upper=not lower, left=left).to(e.dtype)


def cholesky(op, a):
    lower = op.attr("lower") is not None and bool(op.attr("lower").value.data)
    e = result_elem(op)
    compute = _matmul_dtype(e) if e.kind == "float" else e.dtype
    x = a.to(compute)
    x = x.tril() + x.tril(-1).mT.conj() if lower else x.triu() + x.triu(1).mT.conj()
    factor, info = torch.linalg.cholesky_ex(x, upper=not lower)
    bad = (info != 0).reshape(*info.shape, 1, 1)  # not positive definite: NaN, as XLA's
    return torch.where(bad, torch.full_like(factor, float("nan")), factor).to(e.dtype)


def fft(op, x):
    kind = op.attr("fft_type").data
    lengths = attr_ints(op, "fft_length")
    dims = list(range(-len(lengths), 0))
    if kind == "FFT":
        return torch.fft.fftn(x, dim=dims).to(result_elem(op).dtype)
    if kind == "IFFT":
        return torch.fft.ifftn(x, dim=dims).to(result_elem(op).dtype)
    if kind == "RFFT":
        return torch.fft.rfftn(x.float() if x.dtype != torch.float64 else x, s=lengths, dim=dims).to(result_elem(op).dtype)
    return torch.fft.irfftn(x, s=lengths, dim=dims).to(result_elem(op).dtype)


def rng_bit_generator(op, state):
    """Random bits of the result's width, a function of the state; the new state is the old one advanced."""
    e = result_elem(op, 1)
    seed = int(torch.sum(state.to(torch.int64) * torch.arange(1, state.numel() + 1).reshape(state.shape))) & (2 ** 63 - 1)
    generator = torch.Generator().manual_seed(seed)
    shape = shape_of(op.results[1])
    if e.kind == "float":  # values uniform over [0, 1)
        return [wrap(state + 1, operand_elem(op)), torch.rand(shape, generator=generator).to(e.dtype)]
    width = e.width
    words = torch.randint(0, 1 << 16, (*shape, (width + 15) // 16), generator=generator, dtype=torch.int64)
    value = torch.zeros(shape, dtype=torch.int64)
    for i in range(words.shape[-1]):
        value = value | (words[..., i] << (16 * i))
    return [wrap(state + 1, operand_elem(op)), wrap(value, e) if e.kind != "bool" else value & 1 == 1]


# ---------------------------------------------------------------------------------------------------------------
def top_k(op, x):
    """chlo.top_k: the k largest along the last dim, in descending order, ties in index order, and their
    indices."""
    e = operand_elem(op)
    key = total_order_key(x) if e.kind == "float" else unsigned_key(x, e)
    order = torch.sort(key, dim=-1, descending=True, stable=True).indices[..., :attr_int(op, "k")]
    return [torch.take_along_dim(x, order, dim=-1), order]


# The table of ops without regions


VALUE_OPS = {
    **{f"stablehlo.{n}": float_unary for n in FLOAT_UNARY},
    **{f"stablehlo.{n}": fn for n, fn in BINARY.items()},
    **{f"stablehlo.{n}": fn for n, fn in {
        "abs": abs_, "negate": negate, "not": not_, "sign": sign, "is_finite": is_finite, "real": real,
        "imag": imag, "complex": complex_, "count_leading_zeros": clz, "popcnt": popcnt, "compare": compare,
        "select": select, "clamp": clamp, "convert": convert, "bitcast_convert": bitcast_convert,
        "reduce_precision": reduce_precision, "constant": constant, "iota": iota, "dynamic_iota": iota,
        "reshape": reshape, "dynamic_reshape": reshape, "broadcast_in_dim": broadcast_in_dim,
        "dynamic_broadcast_in_dim": broadcast_in_dim, "broadcast": broadcast, "transpose": transpose,
        "reverse": reverse, "concatenate": concatenate, "get_dimension_size": get_dimension_size,
        "slice": slice_, "dynamic_slice": dynamic_slice, "dynamic_update_slice": dynamic_update_slice,
        "pad": pad, "dot_general": dot_general, "dot": dot, "einsum": einsum, "gather": gather,
        "triangular_solve": triangular_solve, "cholesky": cholesky, "fft": fft,
        "rng_bit_generator": rng_bit_generator}.items()},
    "chlo.top_k": top_k,
}
