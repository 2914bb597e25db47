"""Tile math of the simulated Tensix core: how tiles sit in memory, unpack into the dst register, compute
there, and pack back. Every numeric choice of the Metal simulator lives here, so the hardware's exact
behaviour (math fidelity phases, packer rounding, block floats) can be made bit-exact in one place.

A 32x32 tile is stored as four 16x16 faces (top-left, top-right, bottom-left, bottom-right), each row-major,
in the data format of the buffer or CB holding it. Unpacking widens to f32. The dst register holds 16
tiles; without fp32 dest accumulation it keeps 16-bit (bf16) values: a result written to it is rounded to
bf16, and so is each sum accumulated in it (matmul), as `numerics.dst_bf16` rounds. The arithmetic itself
(math fidelity of FPU products, the packer's rounding, SFPU
approximations) is `ttmlir.runtime.numerics`, driven by the kernel's compute config.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy
import torch

from ttmlir.runtime import numerics
from ttmlir.runtime.numerics import Numerics

TILE = 32
FACE = 16
FORMATS = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16, "u32": torch.int32,
           "si32": torch.int32, "u16": torch.int16, "u8": torch.uint8}
DST_TILES = 16


def tile_bytes(data_format: str) -> int:
    if data_format not in FORMATS:
        raise ValueError(f"data format '{data_format}' is not modelled by the Metal simulator "
                         f"(one of {', '.join(FORMATS)})")
    return TILE * TILE * FORMATS[data_format].itemsize


def tilize(x: torch.Tensor, data_format: str) -> torch.Tensor:
    """A 2-d tensor (each side a multiple of 32) as the bytes of its tiles in row-major tile order."""
    rows, cols = x.shape
    faces = x.reshape(rows // TILE, 2, FACE, cols // TILE, 2, FACE).permute(0, 3, 1, 4, 2, 5)
    return to_bytes(faces.reshape(-1), data_format)


def untilize(data: torch.Tensor, shape: tuple[int, int], data_format: str) -> torch.Tensor:
    """The inverse of `tilize`: bytes of tiles back into a (rows, cols) f32 tensor."""
    rows, cols = shape
    # bf16 reordered as stored, then widened (a shift: exact, whichever order); other formats widened first
    values = data.contiguous().view(torch.bfloat16) if data_format == "bf16" else from_bytes(data, data_format)
    faces = values.reshape(rows // TILE, cols // TILE, 2, 2, FACE, FACE).permute(0, 2, 4, 1, 3, 5)
    return held(faces.reshape(rows, cols), data_format)


def unpack(data: torch.Tensor, data_format: str) -> torch.Tensor:
    """One tile's bytes as a 32x32 f32 tensor."""
    faces = from_bytes(data, data_format).reshape(2, 2, FACE, FACE)
    return faces.permute(0, 2, 1, 3).reshape(TILE, TILE)


def pack(tile: torch.Tensor, data_format: str, num: Numerics = numerics.EXACT) -> torch.Tensor:
    """A 32x32 tile as bytes in `data_format`, rounded as the packer does."""
    faces = tile.reshape(2, FACE, 2, FACE).permute(0, 2, 1, 3).reshape(-1)
    packed = numerics.store(faces, data_format, num)
    return to_bytes(faces if packed is None else packed, data_format)


def to_bytes(values: torch.Tensor, data_format: str) -> torch.Tensor:
    dtype = FORMATS[data_format]
    if not dtype.is_floating_point:
        values = values.round()
    return values.to(dtype).contiguous().view(torch.uint8)


def from_bytes(data: torch.Tensor, data_format: str) -> torch.Tensor:
    return held(data.contiguous().view(FORMATS[data_format]), data_format)


def is_integer(data_format: str) -> bool:
    """Whether a format holds integers (a format this table does not know holds floats)."""
    return not FORMATS.get(data_format, torch.float32).is_floating_point


def held(values: torch.Tensor, data_format: str) -> torch.Tensor:
    """A format's values as the simulator computes with them: f32 for floats, f64 for integers (every 32-bit
    integer exactly)."""
    return values.to(torch.float64 if is_integer(data_format) else torch.float32)


# --- whole pages through numpy: a tile's bytes, its faces and the packer's rounding as a few numpy calls (far
# cheaper than torch calls on one tile), bit for bit what the torch path above computes; None where a format or a
# NaN (whose bits torch's conversions choose) leaves it to the torch path

def _holds_nan(values: numpy.ndarray) -> bool:
    """Whether f32 values hold a NaN (their maximum is one: numpy's maximum propagates NaNs)."""
    top = numpy.maximum.reduce(values, axis=None)
    return top != top


def unpack_pages(l1: numpy.ndarray, base: int, page_size: int, pages: list[int],
                 data_format: str) -> numpy.ndarray | None:
    """The tiles at `base + p * page_size` of `l1` (uint8), for each p of `pages`, as [len(pages), 32, 32] f32."""
    size = tile_bytes(data_format)
    if data_format not in ("bf16", "f32") or page_size != size:
        return None
    first, last = min(pages), max(pages)
    region = l1[base + first * size:base + (last + 1) * size]
    raw = region if len(pages) == last + 1 - first and pages[0] == first and \
        all(b - a == 1 for a, b in zip(pages, pages[1:])) else region.reshape(-1, size)[[p - first for p in pages]]
    values = (raw.view(numpy.uint16).astype(numpy.uint32) << 16).view(numpy.float32) if data_format == "bf16" \
        else raw.view(numpy.float32)
    faces = values.reshape(len(pages), 2, 2, FACE, FACE).transpose(0, 1, 3, 2, 4)
    return faces.reshape(len(pages), TILE, TILE)


def unpack_into(dst: numpy.ndarray, data: numpy.ndarray, data_format: str, transpose: bool = False) -> bool:
    """`unpack` of a tile's bytes (uint8) into `dst` (a 32x32 f32 array), transposed within the tile if asked."""
    if data_format not in ("bf16", "f32") or dst.dtype != numpy.float32:
        return False
    faces = data.view(numpy.uint16 if data_format == "bf16" else numpy.uint32).reshape(2, 2, FACE, FACE)
    faces = faces.transpose(1, 3, 0, 2) if transpose else faces.transpose(0, 2, 1, 3)  # as (face row, row, ...)
    held = dst.view(numpy.uint32).reshape(2, FACE, 2, FACE)
    if data_format == "bf16":  # a bf16 is the top half of its f32
        numpy.left_shift(faces, 16, out=held, dtype=numpy.uint32)
    else:
        held[...] = faces
    return True


def dst_holds(dst: numpy.ndarray, data_format: str, num: Numerics) -> bool:
    """Rounds unpacked `data_format` values in `dst` as `dst_round` does, in place; False for NaNs."""
    if num.fp32_dest_acc_en:
        return True
    if data_format == "bf16":  # bf16 values already
        return not _holds_nan(dst)
    held = dst_held(dst, num)
    if held is not None:
        dst[...] = held
    return held is not None


def pack_into(out: numpy.ndarray, tile: numpy.ndarray, data_format: str, num: Numerics) -> bool:
    """`pack` of a 32x32 f32 tile into `out` (uint8, the page's bytes in L1)."""
    if data_format not in ("bf16", "f32") or out.size != tile_bytes(data_format) or tile.dtype != numpy.float32:
        return False
    faces = tile.reshape(2, FACE, 2, FACE).transpose(0, 2, 1, 3)
    if data_format == "f32":
        out.view(numpy.float32).reshape(2, 2, FACE, FACE)[...] = faces
        return True
    if num.exact or _holds_nan(tile):
        return False
    # numerics.pack_bf16: half an ULP added to the bits, the top 16 kept (ties away from zero)
    numpy.right_shift(faces.view(numpy.uint32) + 0x8000, 16, out=out.view(numpy.uint16).reshape(2, 2, FACE, FACE),
                      casting="unsafe")
    return True


def dst_held(tile: numpy.ndarray, num: Numerics) -> numpy.ndarray | None:
    """`dst_round` of f32 values (numpy)."""
    if num.fp32_dest_acc_en:
        return tile
    if _holds_nan(tile):
        return None
    bits = tile.view(numpy.uint32)  # torch's f32 -> bf16: to nearest, ties to even
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).view(numpy.float32)


def dst_round(tile: torch.Tensor, num: Numerics) -> torch.Tensor:
    """A value as the dst register holds it: f32, or bf16 when fp32 dest accumulation is off."""
    return tile if num.fp32_dest_acc_en else tile.to(torch.bfloat16).to(torch.float32)


def _gelu(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(x)


# SFPU unary ops on one dst tile: `<name>_tile(dst)` with `<name>_tile_init()`; extra int/float args
# (a scalar) follow the dst index.
SFPU_UNARY = {
    "exp": torch.exp, "log": torch.log, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "recip": torch.reciprocal,
    "abs": torch.abs, "negative": torch.neg, "relu": torch.relu, "sigmoid": torch.sigmoid, "tanh": torch.tanh,
    "sin": torch.sin, "cos": torch.cos, "tan": torch.tan, "gelu": _gelu, "silu": torch.nn.functional.silu,
    "ceil": torch.ceil, "floor": torch.floor, "sign": torch.sign, "square": torch.square, "erf": torch.erf,
    "exp2": torch.exp2, "expm1": torch.expm1, "log1p": torch.log1p, "logical_not": lambda x: (x == 0).float(),
    "eqz": lambda x: (x == 0).float(), "nez": lambda x: (x != 0).float(), "ltz": lambda x: (x < 0).float(),
    "gtz": lambda x: (x > 0).float(), "lez": lambda x: (x <= 0).float(), "gez": lambda x: (x >= 0).float(),
    "atan": torch.atan, "asin": torch.asin, "acos": torch.acos, "isinf": lambda x: torch.isinf(x).float(),
    "isnan": lambda x: torch.isnan(x).float(), "isfinite": lambda x: torch.isfinite(x).float(),
    "erfc": torch.erfc, "softsign": lambda x: x / (1 + x.abs()), "hardsigmoid": lambda x: (x / 6 + 0.5).clamp(0, 1),
    "signbit": lambda x: torch.signbit(x).float(), "frac": lambda x: x - torch.trunc(x), "trunc": torch.trunc,
    "bitwise_not": lambda x: _int32(~x.long()),  # of si32 tiles
}


def _int32(x: torch.Tensor) -> torch.Tensor:
    """Integers as 32-bit two's complement holds them (the low 32 bits), as the dst register's values."""
    return ((x & 0xFFFFFFFF) ^ 0x80000000).sub(0x80000000).double()


# SFPU binary ops between two dst tiles: `<name>(dst_a, dst_b[, dst_out])`, the result in dst_out (dst_a
# when omitted).
SFPU_BINARY = {
    "add_binary_tile": torch.add, "sub_binary_tile": torch.sub, "mul_binary_tile": torch.mul,
    "div_binary_tile": torch.div, "binary_max_tile": torch.maximum, "binary_min_tile": torch.minimum,
    "binary_max_int32_tile": torch.maximum, "binary_min_int32_tile": torch.minimum,
    "power_binary_tile": torch.pow, "rsub_binary_tile": lambda a, b: b - a, "atan2_binary_tile": torch.atan2,
    "eq_binary_tile": lambda a, b: (a == b).float(), "ne_binary_tile": lambda a, b: (a != b).float(),
    "gt_binary_tile": lambda a, b: (a > b).float(), "lt_binary_tile": lambda a, b: (a < b).float(),
    "ge_binary_tile": lambda a, b: (a >= b).float(), "le_binary_tile": lambda a, b: (a <= b).float(),
    "bitwise_and_binary_tile": lambda a, b: (a.long() & b.long()).double(),
    "bitwise_or_binary_tile": lambda a, b: (a.long() | b.long()).double(),
    "bitwise_xor_binary_tile": lambda a, b: (a.long() ^ b.long()).double(),
    # shifts of si32 tiles (the bit pattern; an arithmetic right shift keeps the sign)
    "binary_left_shift_tile": lambda a, b: _int32(a.long() << b.long()),
    "binary_right_shift_tile": lambda a, b: _int32(a.long() >> b.long()),
    "binary_logical_right_shift_tile": lambda a, b: _int32((a.long() & 0xFFFFFFFF) >> b.long()),
}

# SFPU ops of a dst tile and 32-bit scalar parameters, in place: `<name>(dst, param...)`, and how the parameters
# are read: a float's bits ("float"), an integer ("int")
SCALAR_BINARY = {"add_unary_tile": (torch.add, "float"), "sub_unary_tile": (torch.sub, "float"),
                 "mul_unary_tile": (torch.mul, "float"), "div_unary_tile": (torch.div, "float"),
                 "add_unary_tile_int32": (torch.add, "int"), "sub_unary_tile_int32": (torch.sub, "int"),
                 "power_tile": (torch.pow, "int"),
                 "clamp_tile": (lambda x, low, high: x.clamp(low, high), "float"),
                 "clamp_tile_int32": (lambda x, low, high: x.clamp(low, high), "int"),
                 "selu_tile": (lambda x, scale, alpha: scale * torch.where(x > 0, x, alpha * torch.expm1(x)), "float")}

# FPU binary ops reading two CB tiles into a dst tile: `<name>(cb_a, cb_b, tile_a, tile_b, dst)`.
FPU_BINARY = {"add_tiles": torch.add, "sub_tiles": torch.sub, "mul_tiles": torch.mul}


def broadcast(tile: torch.Tensor, kind: str) -> torch.Tensor:
    """A tile's first row ("row"), first column ("col") or first value ("scalar") spread over the whole tile."""
    if kind == "row":
        return tile[0:1, :].expand(TILE, TILE).clone()
    if kind == "col":
        return tile[:, 0:1].expand(TILE, TILE).clone()
    return tile[0, 0].expand(TILE, TILE).clone()


def reduce(tile: torch.Tensor, pool: str, dim: str) -> torch.Tensor:
    """A tile reduced along its rows (the result in column 0), its columns (in row 0) or both (in [0, 0]); the
    rest of the result tile is zero. AVG sums: its scaler divides."""
    out = torch.zeros_like(tile)
    reduce_fn = (lambda t, d: t.amax(d)) if pool == "MAX" else (lambda t, d: t.sum(d))
    if dim == "row":
        out[:, 0] = reduce_fn(tile, 1)
    elif dim == "col":
        out[0, :] = reduce_fn(tile, 0)
    else:
        out[0, 0] = reduce_fn(reduce_fn(tile, 1), 0)
    return out


def combine(acc: torch.Tensor, value: torch.Tensor, pool: str) -> torch.Tensor:
    """A reduction's running value in dst combined with the next tile's."""
    return torch.maximum(acc, value) if pool == "MAX" else acc + value


def matmul(acc: torch.Tensor, a: torch.Tensor, b: torch.Tensor, transpose_b: bool,
           num: Numerics = numerics.EXACT) -> torch.Tensor:
    """dst += a @ b (b transposed within the tile when asked): one tile's products (or a batch of tiles') at the
    kernel's math fidelity; the sum is then held as dst holds it."""
    total = acc + numerics.matmul(a, b.transpose(-2, -1) if transpose_b else b, replace(num, fp32_dest_acc_en=True))
    return total if num.fp32_dest_acc_en or num.exact else numerics.dst_bf16(total)


def matmul_steps(acc: torch.Tensor, a: torch.Tensor, b: torch.Tensor, transpose_b: bool,
                 num: Numerics = numerics.EXACT) -> torch.Tensor:
    """`matmul` over the steps of an inner dimension, one tile deep each (a [K, ..., 32, 32], b [K, ..., 32, 32]),
    dst rounding its sum after each step: the products of every step at once (each product is computed alone
    either way), their sums one step after another, in order."""
    products = numerics.matmul(a, b.transpose(-2, -1) if transpose_b else b, replace(num, fp32_dest_acc_en=True))
    held = _accumulate(acc.numpy(), products.numpy(), num)
    if held is not None:
        return torch.from_numpy(held)
    for product in products:
        total = acc + product
        acc = dst_round(total if num.fp32_dest_acc_en or num.exact else numerics.dst_bf16(total), num)
    return acc


def _accumulate(acc: numpy.ndarray, products: numpy.ndarray, num: Numerics) -> numpy.ndarray | None:
    """`matmul_steps`' sums in numpy; None when a NaN is among them (torch chooses a NaN's bits)."""
    if _holds_nan(acc) or _holds_nan(products):
        return None
    with numpy.errstate(over="ignore", invalid="ignore"):  # infinities are values like any other here
        return _sums(acc, products, num)


def _sums(acc: numpy.ndarray, products: numpy.ndarray, num: Numerics) -> numpy.ndarray | None:
    """The products added to `acc` one after another, each sum held as dst holds it."""
    for product in products:
        acc = acc + product
        if num.fp32_dest_acc_en:
            continue
        if num.exact:  # dst_round alone
            acc = dst_held(acc, num)
            if acc is None:
                return None
        else:  # numerics.dst_bf16 (to TF32, then to bf16, ties away from zero; subnormals flush): bf16 already
            bits = (((acc.view(numpy.uint32) + 0x1000) & 0xFFFFE000) + 0x8000) & 0xFFFF0000
            acc = numpy.where((bits & 0x7F800000) != 0, bits, numpy.uint32(0)).view(numpy.float32)
    return None if _holds_nan(acc) else acc


def fpu(name: str, a: torch.Tensor, b: torch.Tensor, num: Numerics = numerics.EXACT) -> torch.Tensor:
    """An FPU binary op on two unpacked tiles: products at the kernel's math fidelity."""
    return numerics.multiply(a, b, num) if name == "mul_tiles" else FPU_BINARY[name](a, b)


def sfpu_unary(name: str, tile: torch.Tensor, num: Numerics = numerics.EXACT) -> torch.Tensor:
    """An SFPU unary op on a dst tile, approximated when the kernel asks for math_approx_mode."""
    return numerics.sfpu(name, SFPU_UNARY[name], tile, num)


# Cycles of one tile operation on one core, for the simulator's clock: FPU ops at the math engine's rate
# (a 32x32 tile in 4 faces of 16 rows each), SFPU ops per face row, unpack/pack at the register file's
# width; approximations documented here, to be refined against silicon traces.
CYCLES = {"unpack": 64, "pack": 64, "fpu": 64, "sfpu": 256, "matmul": 64 * 4, "sfpu_complex": 1024}
COMPLEX_SFPU = frozenset({"exp", "log", "sqrt", "rsqrt", "recip", "sigmoid", "tanh", "sin", "cos", "tan", "gelu",
                          "silu", "erf", "exp2", "expm1", "log1p", "atan", "asin", "acos", "div_binary_tile",
                          "power_binary_tile"})


def sfpu_cycles(name: str) -> int:
    return CYCLES["sfpu_complex"] if name in COMPLEX_SFPU else CYCLES["sfpu"]


def tiles_of(shape: tuple[int, ...]) -> int:
    return math.prod(shape[:-2]) * math.ceil(shape[-2] / TILE) * math.ceil(shape[-1] / TILE)
