"""The Tensix core's arithmetic: what the hardware computes, not what f32 would.

Every kernel of the simulator (TTNN ops and the Metal grid's tile math) takes its numerics from here:

- Source registers: the unpacker widens a value into srcA/srcB as 19 bits (sign, 8-bit exponent, 10-bit
  mantissa): f32 loses its low 13 mantissa bits, bf16 is exact; subnormals flush to zero.
- Math fidelity: the multiplier is 5 x 7 bits. srcA splits into its top 5 significant bits (hidden one and 4
  mantissa bits) and the rest, srcB into its top 7 and the rest; phase 0 multiplies A-high by B-high, phase 1
  A-low by B-high, phase 2 A-high by B-low, phase 3 A-low by B-low. LoFi runs phase 0, HiFi2 phases 0-1,
  HiFi3 0-2, HiFi4 all four (the exact product). A matmul's in1 (the weights) is srcA, in0 srcB; an eltwise
  FPU op reads in0 into srcA.
- Accumulation: the dst register keeps f32 with `fp32_dest_acc_en`, else bf16: the FPU's sum (the partial
  products of successive 32-deep tiles of the inner dimension added to dst) is rounded to TF32 (10 mantissa bits),
  then narrowed to bf16, each step ties away from zero (tt-metal issue 46101); the double rounding biases long
  sums slightly, far less than dropping the low bits would.
- Packer: f32 -> bf16 is `(bits + 0x8000) >> 16`, ties away from zero (NaN stays a quiet NaN).
- Block floats (bfp8/4/2): 16 values share the largest exponent; each 24-bit significand is shifted right by
  its distance to that exponent (truncating), then rounded half up to the format's width and saturated. The
  `bfp_f*` formats first rebias exponents to 5 bits (clamped, saturating). Converted on the host (tt-metal's
  `from_torch`, and exact numerics) a value goes to the nearest value of the shared grid, ties to even.
- SFPU: precise mode is within 1 bf16 ULP (f32 then packed); `math_approx_mode` selects the fast
  approximations: exp by the exponent-field trick (2^frac taken as 1 + frac), reciprocal from the magic-number
  guess and one Newton step, sqrt from the inverse-sqrt guess and one step, gelu in its tanh form.

`Numerics(exact=True)` (ttrt's `--exact-numerics`) keeps f32 arithmetic and round-to-nearest-even storage.
Defaults per op follow TTNN when an op's compute_config leaves a field unset: matmul/linear HiFi2 (LoFi when
both operands are bfp8/bfp4, HiFi4 when both are f32) with f32 dst only for an f32 output; everything else
HiFi4, approximations off, f32 dst when the output or an input is f32.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

PHASES = {"lofi": 1, "hifi2": 2, "hifi3": 3, "hifi4": 4}
TILE = 32
EXPONENT_FIELD = 0x7F800000  # an f32's exponent bits: all zero in subnormals and zeros
BFP_WIDTH = {"bfp_f8": 7, "bfp_bf8": 7, "bfp_f4": 3, "bfp_bf4": 3, "bfp_f2": 1, "bfp_bf2": 1}
BLOCK = 16
LOW_PRECISION = frozenset({"bfp_bf8", "bfp_f8", "bfp_bf4", "bfp_f4"})
MATMUL_OPS = frozenset({"matmul", "linear"})


@dataclass(frozen=True)
class Numerics:
    """One op's compute configuration as the hardware applies it; `exact` computes in f32 instead."""

    math_fidelity: str = "hifi4"
    fp32_dest_acc_en: bool = True
    math_approx_mode: bool = False
    exact: bool = False


EXACT = Numerics(exact=True)


def resolve(op: str, config: dict, input_dtypes: list[str], output_dtype: str | None, exact: bool = False) -> Numerics:
    """The numerics an op runs with: its compute_config's fields (`config`, as serialized: strings), TTNN's
    defaults for the rest."""
    if exact:
        return EXACT
    f32_out = output_dtype == "f32"
    if op in MATMUL_OPS and len(input_dtypes) >= 2:
        a, b = input_dtypes[:2]
        fidelity = "hifi4" if a == b == "f32" else "lofi" if {a, b} <= LOW_PRECISION else "hifi2"
        fp32 = f32_out
    else:
        fidelity, fp32 = "hifi4", f32_out or "f32" in input_dtypes
    flag = lambda key, default: config[key] in ("true", "1", True) if key in config else default  # noqa: E731
    return Numerics(config.get("math_fidelity", fidelity), flag("fp32_dest_acc_en", fp32),
                    flag("math_approx_mode", False))


# --- bits ---------------------------------------------------------------------------------------------------

def _bits(x: torch.Tensor) -> torch.Tensor:
    return x.to(torch.float32).contiguous().view(torch.int32)


def _float(bits: torch.Tensor) -> torch.Tensor:
    return bits.to(torch.int32).view(torch.float32)


def _flushed(bits: torch.Tensor) -> torch.Tensor:
    """f32 bits (a tensor of the caller's own, changed in place) with subnormals and -0 as +0, as f32 values."""
    return bits.masked_fill_((bits & EXPONENT_FIELD) == 0, 0).view(torch.float32)


def flush_subnormals(x: torch.Tensor) -> torch.Tensor:
    """Subnormals (and -0) as +0; on the bits, a pass cheaper than comparing magnitudes."""
    return _flushed(_bits(x).clone())


def _keep_top(x: torch.Tensor, mantissa_bits: int) -> torch.Tensor:
    """x with only its top `mantissa_bits` stored mantissa bits (truncated toward zero)."""
    return _float(_bits(x) & _kept_mask(mantissa_bits))


def _kept_mask(mantissa_bits: int) -> int:
    return -(1 << (23 - mantissa_bits))  # sign, exponent and the kept bits


def to_source(x: torch.Tensor) -> torch.Tensor:
    """A value as srcA/srcB hold it: 10 mantissa bits, no subnormals."""
    return _flushed(_bits(x) & _kept_mask(10))


def split(x: torch.Tensor, significant: int) -> tuple[torch.Tensor, torch.Tensor]:
    """A source value as its top `significant` bits (hidden one included) and the remainder (exact in f32)."""
    high = _keep_top(x, significant - 1)
    return high, x - high


def _round_away(bits: torch.Tensor, dropped: int) -> torch.Tensor:
    """f32 bits rounded to drop their low `dropped` mantissa bits, ties away from zero (on the magnitude)."""
    return (bits + (1 << (dropped - 1))) & -(1 << dropped)


def dst_bf16(x: torch.Tensor) -> torch.Tensor:
    """An FPU result as the 16-bit dst register holds it: rounded to TF32, then to bf16, both ties away from
    zero; subnormals flush, a NaN stays a NaN."""
    x = x.to(torch.float32)
    rounded = flush_subnormals(_float(_round_away(_round_away(_bits(x), 13), 16)))
    return torch.where(torch.isnan(x), x, rounded)


def pack_bf16(x: torch.Tensor) -> torch.Tensor:
    """The packer's f32 -> bf16: add half an ULP to the magnitude's bits and truncate (ties away from zero)."""
    x = x.to(torch.float32)
    rounded = _float((_bits(x) + 0x8000) & -65536)
    nan = torch.copysign(torch.full_like(x, float("nan")), x)
    return torch.where(torch.isnan(x), nan, rounded).to(torch.bfloat16)


# --- block floats -------------------------------------------------------------------------------------------

# rows of a tensor quantized to a block float this many elements at a time: each row's groups are independent, and
# the integer and f64 intermediates of a whole (2048 x 128256) weight would hold 2 GB each at once
QUANTIZE_BLOCK_ELEMENTS = 1 << 22


def quantize_bfp(x: torch.Tensor, dtype: str, ties_to_even: bool = False) -> torch.Tensor:
    """Values as a bfp tensor stores them (f32), 16 consecutive values of the last dimension sharing an
    exponent (a tile face row): as the packer writes them, or (`ties_to_even`) as the host converts them."""
    shape = x.shape
    flat = x.reshape(-1, shape[-1]) if x.dim() else x.reshape(1, 1)
    rows = max(1, QUANTIZE_BLOCK_ELEMENTS // max(1, flat.shape[1]))
    if flat.shape[0] <= rows:
        return _quantize_rows(flat, dtype, ties_to_even).reshape(shape)
    out = torch.empty(flat.shape, dtype=torch.float32, device=flat.device)
    for start in range(0, flat.shape[0], rows):
        out[start:start + rows] = _quantize_rows(flat[start:start + rows], dtype, ties_to_even)
    return out.reshape(shape)


def _quantize_rows(flat: torch.Tensor, dtype: str, ties_to_even: bool) -> torch.Tensor:
    """`quantize_bfp` of a [rows, cols] tensor."""
    width = BFP_WIDTH[dtype]
    flat = flat.to(torch.float32)
    cols = flat.shape[1]
    groups = torch.nn.functional.pad(flat, (0, (-cols) % BLOCK)).reshape(flat.shape[0], -1, BLOCK)
    bits = _bits(groups).to(torch.int64) & 0xFFFFFFFF
    sign, exponent, mantissa = bits >> 31, (bits >> 23) & 0xFF, bits & 0x7FFFFF
    zero = (bits & 0x7FFFFFFF) == 0
    if dtype.startswith("bfp_f"):  # 5-bit exponents: rebias, saturating above and flushing below
        rebiased = exponent - 127 + 15
        mantissa = torch.where(rebiased > 31, 0x7FFFFF, torch.where(rebiased < 0, 0, mantissa))
        exponent = rebiased.clamp(0, 31)
    shared = torch.where(zero, 0, exponent).amax(-1, keepdim=True)
    shift = 24 - width
    if ties_to_even:  # the nearest grid value to the whole significand, a tie to the even one
        drop = (shared - exponent + shift).clamp(0, 40)
        whole = mantissa | (1 << 23)
        unit = torch.bitwise_left_shift(torch.ones_like(drop), drop)
        kept, rest, half = whole >> drop, whole & (unit - 1), unit >> 1
        kept = kept + ((rest > half) | ((rest == half) & ((kept & 1) == 1))).to(kept.dtype)
    else:  # the packer: aligned to the shared exponent (the bits shifted out are lost), then rounded half up
        significand = (mantissa | (1 << 23)) >> (shared - exponent).clamp(0, 31)
        kept = (significand + (1 << (shift - 1))) >> shift
    kept = kept.clamp(max=(1 << width) - 1)
    kept = torch.where(zero, 0, kept)
    bias = 15 if dtype.startswith("bfp_f") else 127
    scale = torch.pow(2.0, (shared - bias - (width - 1)).to(torch.float64))
    value = torch.where(sign == 1, -kept, kept).to(torch.float64) * scale
    return value.to(torch.float32).reshape(flat.shape[0], -1)[:, :cols]


# --- the matrix engine ----------------------------------------------------------------------------------------

def _phase_terms(src_a: torch.Tensor, src_b: torch.Tensor, fidelity: str) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """(srcA part, srcB part) pairs whose products the fidelity's phases add up, fewest pairs first."""
    phases = PHASES[fidelity]
    if phases == 4:
        return [(src_a, src_b)]
    a_high, a_low = split(src_a, 5)
    b_high, _ = split(src_b, 7)
    if phases == 1:
        return [(a_high, b_high)]
    if phases == 2:
        return [(src_a, b_high)]
    return [(src_a, b_high), (a_high, src_b - b_high)]


# a matmul's weights converted (to f32, to source precision, split into phases) this many elements at a time: the
# columns of one (32 x 256000) logits projection are independent, and converting its 2048 x 256000 weights whole
# would hold several f32 copies of them (2 GB each) at once
MATMUL_BLOCK_ELEMENTS = 1 << 24


def matmul(a: torch.Tensor, b: torch.Tensor, num: Numerics) -> torch.Tensor:
    """a @ b (batched, broadcasting like torch.matmul) on the matrix engine: b is srcA, a srcB. Inputs may be
    stored in any float format (bf16: exact in f32); b is read a block of columns at a time."""
    if a.dim() < 2 or b.dim() < 2:  # vectors: torch's semantics, f32
        return torch.matmul(a.to(torch.float32), b.to(torch.float32))
    src_b = a.to(torch.float32) if num.exact else to_source(a)
    columns = b.shape[-1]
    step = max(TILE, MATMUL_BLOCK_ELEMENTS // max(1, b.numel() // max(1, columns)))
    if columns <= step:
        return _matmul_block(src_b, b, num)
    shape = (*torch.broadcast_shapes(a.shape[:-2], b.shape[:-2]), a.shape[-2], columns)
    out = torch.empty(shape, dtype=torch.float32)
    for start in range(0, columns, step):
        out[..., start:start + step] = _matmul_block(src_b, b[..., start:start + step], num)
    return out


def _matmul_block(src_b: torch.Tensor, b: torch.Tensor, num: Numerics) -> torch.Tensor:
    """`src_b` (the left operand, already in srcB precision) times a block of b's columns."""
    if num.exact:
        return torch.matmul(src_b, b.to(torch.float32))
    terms = _phase_terms(to_source(b), src_b, num.math_fidelity)
    product = lambda lo, hi: sum(torch.matmul(x_b[..., lo:hi], x_a[..., lo:hi, :]) for x_a, x_b in terms)  # noqa: E731
    inner = src_b.shape[-1]
    if num.fp32_dest_acc_en:
        return flush_subnormals(product(0, inner))
    acc = None
    for start in range(0, inner, TILE):  # dst holds bf16 between the inner dimension's tiles
        part = product(start, start + TILE)
        acc = dst_bf16(part if acc is None else acc + part)
    return acc


def conv(fn, x: torch.Tensor, w: torch.Tensor, num: Numerics, *args) -> torch.Tensor:
    """A convolution `fn(x, w, None, *args)` on the matrix engine (the weights in srcA). Its accumulation over
    the kernel window is f32 here; without f32 dst the result is held in bf16."""
    if num.exact:
        return fn(x, w, None, *args)
    terms = _phase_terms(to_source(w), to_source(x), num.math_fidelity)
    out = sum(fn(x_b, x_a, None, *args) for x_a, x_b in terms)
    return flush_subnormals(out) if num.fp32_dest_acc_en else dst_bf16(out)


def multiply(a: torch.Tensor, b: torch.Tensor, num: Numerics) -> torch.Tensor:
    """An eltwise FPU product (in0 in srcA)."""
    if num.exact:
        return a * b
    out = sum(x_a * x_b for x_a, x_b in _phase_terms(to_source(a), to_source(b), num.math_fidelity))
    return flush_subnormals(out) if num.fp32_dest_acc_en else dst_bf16(out)


# --- SFPU approximations ------------------------------------------------------------------------------------

def _exp_approx(x: torch.Tensor) -> torch.Tensor:
    """2^(x / ln 2) with the fraction of the exponent taken as a linear mantissa."""
    t = (x / 0.6931471805599453).clamp(-127.0, 128.0)
    whole = torch.floor(t)
    return torch.ldexp(1.0 + (t - whole), whole.to(torch.int32))


def _recip_approx(x: torch.Tensor) -> torch.Tensor:
    guess = _float(0x7EF311C3 - _bits(x.abs()))
    guess = guess * (2.0 - x.abs() * guess)
    return torch.copysign(guess, x)


def _sqrt_approx(x: torch.Tensor) -> torch.Tensor:
    guess = _float(0x5F3759DF - (_bits(x) >> 1))
    guess = guess * (1.5 - 0.5 * x * guess * guess)
    return torch.where(x > 0, x * guess, torch.sqrt(x))


APPROXIMATE = {
    "exp": _exp_approx, "recip": _recip_approx, "reciprocal": _recip_approx, "sqrt": _sqrt_approx,
    "gelu": lambda x: torch.nn.functional.gelu(x, approximate="tanh"),
}


def sfpu(name: str, precise, x: torch.Tensor, num: Numerics) -> torch.Tensor:
    """An SFPU function of `x`: `precise` (the f32 function) unless approximation mode asks for the fast one."""
    approx = APPROXIMATE.get(name) if num.math_approx_mode and not num.exact else None
    return approx(x) if approx is not None else precise(x)


def store(x: torch.Tensor, dtype: str, num: Numerics) -> torch.Tensor:
    """A result as the packer writes it into a `dtype` tensor (bf16 ties away from zero, block floats by the
    packer's rule; in exact numerics, as the host converts: ties to even); None for other formats (stored as
    they are)."""
    if dtype in BFP_WIDTH:
        return quantize_bfp(x, dtype, ties_to_even=num.exact)
    if dtype == "bf16" and not num.exact and x.is_floating_point() and x.dtype != torch.bfloat16:
        return pack_bf16(x)
    return None
