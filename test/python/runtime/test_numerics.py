"""The hardware's numerics on the simulator: math fidelity, dst accumulation, the packer's rounding, block floats,
SFPU approximations, and exact mode. References here are written from the hardware's rules, independently of
`ttmlir.runtime.numerics` (float64 numpy with integer significands, per-element Python for the block floats)."""

import math
import struct

import numpy as np
import pytest
import torch

from ttmlir.compiler import compile_ttir
from ttmlir.runtime import numerics
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.runtime.formats import to_format

M, K, N = 64, 256, 96


def matmul_module(dtype="bf16", out_dtype=None):
    out = out_dtype or dtype
    return (f"func.func @mm(%a: tensor<{M}x{K}x{dtype}>, %b: tensor<{K}x{N}x{dtype}>) -> tensor<{M}x{N}x{out}> {{\n"
            f'  %0 = "ttir.matmul"(%a, %b) : (tensor<{M}x{K}x{dtype}>, tensor<{K}x{N}x{dtype}>) -> '
            f"tensor<{M}x{N}x{out}>\n  return %0 : tensor<{M}x{N}x{out}>\n}}\n")


def run(text, inputs, options="", exact=False):
    binary = Binary(data=compile_ttir(text, pipeline_options=options))
    outputs, _ = run_program(binary, 0, inputs, MeshDevice(), exact=exact)
    return [t.data for t in outputs]


def significand_parts(x: np.ndarray, high_bits: int) -> tuple[np.ndarray, np.ndarray]:
    """x (as a 19-bit source register holds it: 11 significant bits, truncated) split into its top
    `high_bits` significant bits and the rest, as float64 values."""
    mantissa, exponent = np.frexp(x.astype(np.float64))  # |mantissa| in [0.5, 1)
    sig = np.floor(np.abs(mantissa) * 2.0 ** 11)
    high = np.floor(sig / 2.0 ** (11 - high_bits)) * 2.0 ** (11 - high_bits)
    scale = np.sign(mantissa) * np.ldexp(1.0, exponent - 11)
    return high * scale, (sig - high) * scale


def reference_matmul(a: np.ndarray, b: np.ndarray, fidelity: str, fp32_dest: bool) -> np.ndarray:
    """The phase model: weights (b) in srcA split 5 + 6 bits, activations (a) in srcB split 7 + 4."""
    a_hi, a_lo = significand_parts(a, 7)
    b_hi, b_lo = significand_parts(b, 5)
    pairs = {"lofi": [(a_hi, b_hi)], "hifi2": [(a_hi, b_hi), (a_hi, b_lo)],
             "hifi3": [(a_hi, b_hi), (a_hi, b_lo), (a_lo, b_hi)],
             "hifi4": [(a_hi, b_hi), (a_hi, b_lo), (a_lo, b_hi), (a_lo, b_lo)]}[fidelity]
    if fp32_dest:
        return sum(x @ y for x, y in pairs)
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k in range(0, a.shape[1], 32):
        acc = acc + sum(x[:, k:k + 32] @ y[k:k + 32] for x, y in pairs).astype(np.float32)
        for dropped in (13, 16):  # a 16-bit dst rounds to TF32, then to bf16, ties away from zero each time
            acc = ((acc.view(np.int32) + (1 << (dropped - 1))) & -(1 << dropped)).view(np.float32)
    return acc.astype(np.float64)


def rel_rms(got, want) -> float:
    return float(np.sqrt(np.mean((got - want) ** 2)) / np.sqrt(np.mean(want ** 2)))


@pytest.mark.parametrize("fp32_dest", [True, False])
def test_matmul_error_by_fidelity_follows_the_phase_model(fp32_dest):
    torch.manual_seed(0)
    a, b = torch.randn(M, K).bfloat16(), torch.randn(K, N).bfloat16()
    exact = a.double().numpy() @ b.double().numpy()
    errors = {}
    for fidelity in ("lofi", "hifi2", "hifi4"):
        options = f"compute-cfg-math-fidelity={fidelity} compute-cfg-fp32-dest-acc-en={str(fp32_dest).lower()}"
        (out,) = run(matmul_module(), [a, b], options)
        errors[fidelity] = rel_rms(out.double().numpy(), exact)
        model = reference_matmul(a.float().numpy(), b.float().numpy(), fidelity, fp32_dest)
        model = torch.from_numpy(model).float().bfloat16().double().numpy()  # the output is bf16
        predicted = rel_rms(model, exact)
        assert abs(errors[fidelity] - predicted) <= 0.3 * predicted, (fidelity, errors[fidelity], predicted)
    # a bf16 dst loses more than the packer does: the gap between fidelities narrows without f32 accumulation
    assert errors["lofi"] > (4 if fp32_dest else 2) * errors["hifi4"] and errors["lofi"] > errors["hifi2"] > errors["hifi4"]


def test_hifi4_with_fp32_dest_is_within_one_bf16_ulp_of_the_rounded_f32_result():
    torch.manual_seed(1)
    a, b = torch.randn(M, K).bfloat16(), torch.randn(K, N).bfloat16()
    (out,) = run(matmul_module(), [a, b], "compute-cfg-math-fidelity=hifi4 compute-cfg-fp32-dest-acc-en=true")
    want = (a.float() @ b.float()).bfloat16().float()
    ulp = torch.ldexp(torch.ones_like(want), torch.frexp(want).exponent - 8)
    assert torch.all((out.float() - want).abs() <= ulp)


def test_default_matmul_is_less_accurate_than_exact_mode_and_exact_mode_is_f32():
    torch.manual_seed(2)
    a, b = torch.randn(M, K), torch.randn(K, N)
    options = "compute-cfg-math-fidelity=lofi"
    (hardware,) = run(matmul_module("f32"), [a, b], options)
    (exact,) = run(matmul_module("f32"), [a, b], options, exact=True)
    torch.testing.assert_close(exact, a @ b)
    assert rel_rms(hardware.double().numpy(), (a.double() @ b.double()).numpy()) > 1e-3


@pytest.mark.parametrize("fp32_dest", [True, False])
def test_matmul_converts_large_stored_weights_a_block_of_columns_at_a_time(monkeypatch, fp32_dest):
    """A logits projection's bf16 weights (2048 x 256000: 1 GB) reach the kernel as stored and are widened to f32
    and to source precision a block of columns at a time, with the same result: converted whole, several f32
    copies of them at once ran a decode layer out of memory."""
    torch.manual_seed(4)
    a, b = torch.randn(M, K).bfloat16(), torch.randn(K, N).bfloat16()
    options = f"compute-cfg-fp32-dest-acc-en={str(fp32_dest).lower()}"
    (whole,) = run(matmul_module(), [a, b], options)
    seen, widened = [], []
    to_source, matmul = numerics.to_source, numerics.matmul
    monkeypatch.setattr(numerics, "MATMUL_BLOCK_ELEMENTS", 32 * K, raising=False)  # blocks of 32 columns
    monkeypatch.setattr(numerics, "to_source", lambda x: seen.append(x.numel()) or to_source(x))
    monkeypatch.setattr(numerics, "matmul", lambda x, y, num: widened.append(y.dtype) or matmul(x, y, num))
    (blocked,) = run(matmul_module(), [a, b], options)
    assert widened == [torch.bfloat16]
    assert sorted(seen) == [32 * K] * (N // 32) + [a.numel()]  # the activations whole, the weights by blocks
    assert torch.equal(blocked, whole)


def bf16_ties(count: int) -> torch.Tensor:
    """f32 values exactly halfway between two neighbouring bf16 values, of both signs and many magnitudes."""
    torch.manual_seed(3)
    bits = (torch.randn(count) * torch.logspace(-20, 20, count)).bfloat16().float().view(torch.int32)
    return (bits | 0x8000).view(torch.float32)  # the half-ULP bit below bf16's last mantissa bit


def away_from_zero(ties: torch.Tensor) -> torch.Tensor:
    """The bf16 neighbour of larger magnitude, by its bit pattern."""
    return ((ties.view(torch.int32) & -65536) + 65536).view(torch.float32)


def test_device_typecast_to_bf16_rounds_every_tie_away_from_zero():
    ties = bf16_ties(2048).reshape(64, 32)
    text = ('func.func @cast(%x: tensor<64x32xf32>) -> tensor<64x32xbf16> {\n'
            '  %0 = "ttir.typecast"(%x) : (tensor<64x32xf32>) -> tensor<64x32xbf16>\n'
            '  return %0 : tensor<64x32xbf16>\n}\n')
    (out,) = run(text, [ties])
    assert torch.equal(out.float(), away_from_zero(ties))
    (exact,) = run(text, [ties], exact=True)  # exact mode: torch's round to nearest even
    assert torch.equal(exact, ties.bfloat16()) and not torch.equal(exact.float(), away_from_zero(ties))


def reference_bfp(values: list[float], width: int, five_bit_exponent: bool) -> list[float]:
    """One 16-value group by the packing rule, element by element on the f32 bit patterns."""
    words = [struct.unpack("<I", struct.pack("<f", v))[0] for v in values]
    fields = []
    for w in words:
        exponent, mantissa = (w >> 23) & 0xFF, w & 0x7FFFFF
        if five_bit_exponent:
            exponent -= 112
            if exponent > 31:
                exponent, mantissa = 31, 0x7FFFFF
            elif exponent < 0:
                exponent, mantissa = 0, 0
        fields.append((w >> 31, exponent, mantissa, (w & 0x7FFFFFFF) == 0))
    shared = max((e for _, e, _, zero in fields if not zero), default=0)
    out = []
    for sign, exponent, mantissa, zero in fields:
        if zero:
            out.append(0.0)
            continue
        sig = (mantissa | 1 << 23) >> min(shared - exponent, 31)
        kept = min((sig + (1 << (23 - width))) >> (24 - width), (1 << width) - 1)
        value = kept * 2.0 ** (shared - (15 if five_bit_exponent else 127) - (width - 1))
        out.append(-value if sign and kept else value)
    return out


def reference_bfp_host(values: list[float], width: int) -> list[float]:
    """One 16-value group as the host converts it: each value to the nearest multiple of the group's quantum
    (Python's round: ties to even), saturated at the format's largest magnitude."""
    largest = max((abs(v) for v in values if v != 0.0), default=0.0)
    if largest == 0.0:
        return [0.0] * len(values)
    quantum = 2.0 ** (math.floor(math.log2(largest)) - (width - 1))
    top = (2 ** width - 1) * quantum
    return [math.copysign(min(abs(round(v / quantum)) * quantum, top), v) if round(v / quantum) else 0.0
            for v in values]


def _bfp_inputs():
    torch.manual_seed(4)
    x = torch.randn(6, 64) * torch.logspace(-6, 6, 64)
    x[0, :16] = 0.0
    x[1, 3] = -0.0
    x[2, :16] = torch.tensor([1.0, 1.0 + 2 ** -7, 1.5 + 2 ** -8, -1.0 - 2 ** -7] * 4)  # ties of the rounding
    x[3, :16] = torch.tensor([64.5, 65.5, -64.5, -65.5, 64.75, 65.25, 1.0, 0.5] * 2)  # ties to even, below the top
    return x


@pytest.mark.parametrize("dtype,width", [("bfp_bf8", 7), ("bfp_bf4", 3), ("bfp_bf2", 1), ("bfp_f8", 7)])
def test_block_float_packing_is_bit_identical_to_the_rule(dtype, width):
    x = _bfp_inputs()
    got = to_format(x, dtype, numerics.Numerics())  # a device result, as the packer writes it
    want = torch.tensor([reference_bfp(row[i:i + 16].tolist(), width, dtype.startswith("bfp_f"))
                         for row in x for i in range(0, 64, 16)]).reshape(x.shape)
    assert torch.equal(got.view(torch.int32), want.float().view(torch.int32))


@pytest.mark.parametrize("exact", [False, True])
def test_block_float_conversion_of_a_large_tensor_goes_a_block_of_rows_at_a_time(monkeypatch, exact):
    """Rows quantize independently: converted a few rows at a time (as a large weight is, to bound the memory its
    intermediates hold), every value is what the rule gives the tensor whole."""
    x = _bfp_inputs().repeat(5, 1)
    whole = to_format(x, "bfp_bf8", numerics.Numerics(exact=exact))
    monkeypatch.setattr(numerics, "QUANTIZE_BLOCK_ELEMENTS", 3 * x.shape[1])
    seen = []
    real = numerics._quantize_rows
    monkeypatch.setattr(numerics, "_quantize_rows", lambda rows, *a: seen.append(len(rows)) or real(rows, *a))
    assert torch.equal(to_format(x, "bfp_bf8", numerics.Numerics(exact=exact)), whole)
    assert max(seen) == 3 and sum(seen) == x.shape[0]


@pytest.mark.parametrize("dtype,width", [("bfp_bf8", 7), ("bfp_bf4", 3), ("bfp_bf2", 1)])
def test_block_float_host_conversion_rounds_to_nearest_even(dtype, width):
    """tt-metal's host conversion (from_torch): 64.5 -> 64 and 65.5 -> 66 in a group whose exponent is 6."""
    x = _bfp_inputs()
    got = to_format(x, dtype)
    want = torch.tensor([reference_bfp_host(row[i:i + 16].tolist(), width)
                         for row in x for i in range(0, 64, 16)]).reshape(x.shape)
    assert torch.equal(got, want.float())
    if dtype == "bfp_bf8":
        assert got[3, :4].tolist() == [64.0, 66.0, -64.0, -66.0]


def test_sfpu_approximations_are_selected_by_math_approx_mode():
    x = torch.linspace(-8, 8, 4096)
    precise, approx = numerics.Numerics(), numerics.Numerics(math_approx_mode=True)
    assert torch.equal(numerics.sfpu("exp", torch.exp, x, precise), torch.exp(x))
    fast = numerics.sfpu("exp", torch.exp, x, approx)
    relative = ((fast - torch.exp(x)) / torch.exp(x)).abs()
    assert 0.01 < relative.max() < 0.07  # 2^f taken as 1 + f: at most ~6% off
    y = torch.linspace(0.1, 100, 4096)
    assert ((numerics.sfpu("recip", torch.reciprocal, y, approx) * y - 1).abs().max()) < 0.02
    assert ((numerics.sfpu("sqrt", torch.sqrt, y, approx) / torch.sqrt(y) - 1).abs().max()) < 0.01


def test_softmax_in_approx_mode_differs_from_precise_but_stays_close():
    torch.manual_seed(5)
    x = torch.randn(64, 128)
    text = ('func.func @sm(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {\n'
            '  %0 = "ttir.softmax"(%x) <{dimension = 1 : si32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>\n'
            '  return %0 : tensor<64x128xf32>\n}\n')
    (precise,) = run(text, [x])
    (fast,) = run(text, [x], "compute-cfg-math-approx-mode=true")
    torch.testing.assert_close(precise, torch.softmax(x, 1))
    assert not torch.allclose(fast, precise, rtol=1e-3, atol=0)
    assert (fast - torch.softmax(x, 1)).abs().max() < 0.01
