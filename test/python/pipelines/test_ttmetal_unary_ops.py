"""SFPU ops on the kernel path that lower to one tt-metal call each (erfc, softsign, hardsigmoid, signbit, frac,
trunc, silu, square, exp2, asin, acos; bitwise_not on si32 tiles; atan2 of two tiles; clamp_scalar, relu6 and selu with
their scalars as the call's parameters), a clamp between tensors (a maximum then a minimum) and composites (mish,
isfinite, remainder, cbrt, asinh), through the main pipeline and upstream's staged one, against torch in f32."""

import pytest
import torch

from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

from test_ttmetal_integer_ops import main_pipeline
from test_ttmetal_stage_pipelines import staged

SHAPE = (40, 96)
FLOATS = {"erfc": torch.erfc, "softsign": lambda x: x / (1 + x.abs()),
          "hardsigmoid": lambda x: (x / 6 + 0.5).clamp(0, 1), "signbit": lambda x: torch.signbit(x).float(),
          "frac": lambda x: x - torch.trunc(x), "trunc": torch.trunc, "silu": torch.nn.functional.silu,
          "square": torch.square, "exp2": torch.exp2, "asin": torch.asin, "acos": torch.acos}
IN_UNIT = ("asin", "acos")  # defined on [-1, 1]


def module_text(name: str, dtype: str) -> str:
    t = f"tensor<{SHAPE[0]}x{SHAPE[1]}x{dtype}>"
    return f"func.func @f(%a: {t}) -> {t} {{\n  %0 = \"ttir.{name}\"(%a) : ({t}) -> {t}\n  return %0 : {t}\n}}\n"


@pytest.mark.parametrize("compile_", [main_pipeline, staged], ids=["main", "staged"])
@pytest.mark.parametrize("name", FLOATS)
def test_float_unary_op_matches_torch(name, compile_):
    x = torch.randn(SHAPE, generator=torch.Generator().manual_seed(3)) * 3
    x = x.clamp(-0.99, 0.99) if name in IN_UNIT else x
    (out,), _ = run_program(translate(compile_(module_text(name, "f32"))), [x])
    assert torch.allclose(out, FLOATS[name](x), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("compile_", [main_pipeline, staged], ids=["main", "staged"])
def test_bitwise_not_of_integers(compile_):
    x = torch.randint(-2 ** 20, 2 ** 20, SHAPE, generator=torch.Generator().manual_seed(4), dtype=torch.int32)
    (out,), _ = run_program(translate(compile_(module_text("bitwise_not", "si32"))), [x])
    assert torch.equal(out.to(torch.int32), ~x)


@pytest.mark.parametrize("compile_", [main_pipeline, staged], ids=["main", "staged"])
def test_atan2_of_two_tiles(compile_):
    t = f"tensor<{SHAPE[0]}x{SHAPE[1]}xf32>"
    text = (f"func.func @f(%a: {t}, %b: {t}) -> {t} {{\n  %0 = \"ttir.atan2\"(%a, %b) : ({t}, {t}) -> {t}\n"
            f"  return %0 : {t}\n}}\n")
    g = torch.Generator().manual_seed(5)
    y, x = torch.randn(SHAPE, generator=g), torch.randn(SHAPE, generator=g)
    (out,), _ = run_program(translate(compile_(text)), [y, x])
    assert torch.allclose(out, torch.atan2(y, x), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("compile_", [main_pipeline, staged], ids=["main", "staged"])
def test_clamp_between_tensors(compile_):
    t, row = f"tensor<{SHAPE[0]}x{SHAPE[1]}xf32>", f"tensor<1x{SHAPE[1]}xf32>"
    text = (f"func.func @f(%a: {t}, %lo: {row}, %hi: {t}) -> {t} {{\n  %0 = \"ttir.clamp_tensor\"(%a, %lo, %hi) : "
            f"({t}, {row}, {t}) -> {t}\n  return %0 : {t}\n}}\n")
    g = torch.Generator().manual_seed(6)
    x, low = torch.randn(SHAPE, generator=g), torch.randn(1, SHAPE[1], generator=g) - 0.5
    high = low + torch.rand(SHAPE, generator=g)
    (out,), _ = run_program(translate(compile_(text)), [x, low, high])
    assert torch.equal(out, torch.minimum(torch.maximum(x, low), high))


@pytest.mark.parametrize("compile_", [main_pipeline, staged], ids=["main", "staged"])
@pytest.mark.parametrize("dtype", ["f32", "bf16", "si32"])
def test_clamp_between_scalars(dtype, compile_):
    """One d2m.tile_clamp_scalar, its bounds the SFPU call's parameters (a float's bits; integers for si32 tiles)."""
    t = f"tensor<{SHAPE[0]}x{SHAPE[1]}x{dtype}>"
    bounds = "min = -3 : i32, max = 5 : i32" if dtype == "si32" else "min = -0.5 : f32, max = 1.25 : f32"
    text = (f"func.func @f(%a: {t}) -> {t} {{\n  %0 = \"ttir.clamp_scalar\"(%a) <{{{bounds}}}> "
            f": ({t}) -> {t}\n  return %0 : {t}\n}}\n")
    g = torch.Generator().manual_seed(8)
    x = torch.randint(-9, 9, SHAPE, generator=g, dtype=torch.int32) if dtype == "si32" else \
        torch.randn(SHAPE, generator=g).to(torch.bfloat16).float()
    (out,), _ = run_program(translate(compile_(text)), [x])
    expected = x.clamp(-3, 5) if dtype == "si32" else x.clamp(-0.5, 1.25)
    assert torch.equal(out.to(expected.dtype), expected)


@pytest.mark.parametrize("compile_", [main_pipeline, staged], ids=["main", "staged"])
def test_selu_takes_its_scale_and_alpha(compile_):
    t = f"tensor<{SHAPE[0]}x{SHAPE[1]}xf32>"
    text = (f"func.func @f(%a: {t}) -> {t} {{\n  %0 = \"ttir.selu\"(%a) <{{scale = 2.0 : f32, alpha = 0.5 : f32}}> "
            f": ({t}) -> {t}\n  return %0 : {t}\n}}\n")
    x = torch.randn(SHAPE, generator=torch.Generator().manual_seed(9)) * 2
    (out,), _ = run_program(translate(compile_(text)), [x])
    assert torch.allclose(out, torch.where(x > 0, 2 * x, torch.expm1(x)), rtol=1e-5, atol=1e-6)


COMPOSITES = {"mish": lambda x: x * torch.tanh(torch.nn.functional.softplus(x)),
              "isfinite": lambda x: torch.isfinite(x).float(), "relu6": lambda x: x.clamp(0, 6),
              "remainder": lambda a, b: a - b * torch.floor(a / b), "cbrt": lambda x: x.sign() * x.abs() ** (1 / 3),
              "asinh": lambda x: torch.asinh(x)}


@pytest.mark.parametrize("compile_", [main_pipeline, staged], ids=["main", "staged"])
@pytest.mark.parametrize("name", COMPOSITES)
def test_composite_op_matches_torch(name, compile_):
    """Ops D2M has no tile op for, as a few tile ops in one program (an operand used twice read twice), with
    infinities and a NaN among the values."""
    t = f"tensor<{SHAPE[0]}x{SHAPE[1]}xf32>"
    arity = COMPOSITES[name].__code__.co_argcount
    args, operands = ", ".join(f"%a{i}: {t}" for i in range(arity)), ", ".join(f"%a{i}" for i in range(arity))
    text = (f"func.func @f({args}) -> {t} {{\n  %0 = \"ttir.{name}\"({operands}) : ({', '.join([t] * arity)}) -> {t}"
            f"\n  return %0 : {t}\n}}\n")
    g = torch.Generator().manual_seed(11)
    x, divisor = torch.randn(SHAPE, generator=g) * 4, torch.randn(SHAPE, generator=g) * 2 + 0.1
    x[0, :7] = torch.tensor([float("inf"), float("-inf"), float("nan"), 100.0, 1e-6, 0.0, -3e-5])
    inputs = [x, divisor][:arity]
    (out,), _ = run_program(translate(compile_(text)), inputs)
    assert torch.allclose(out, COMPOSITES[name](*inputs), rtol=1e-5, atol=1e-6, equal_nan=True)


@pytest.mark.parametrize("compile_", [main_pipeline, staged], ids=["main", "staged"])
def test_a_tile_read_by_two_ops_is_loaded_for_each(compile_, monkeypatch):
    """A linalg body reading one operand's tile in two ops, one of which overwrites its DST input (as hand-written
    D2M may): mish written so, x * tanh(log1p(exp(x))) on one block argument."""
    from ttmlir.conversion.ttir_to_d2m import ttir_to_d2m
    from ttmlir.conversion.ttir_to_d2m.tiles import tile_chain
    chain = tile_chain(lambda made, leaves: made("tile_mul", leaves[0], made("tile_tanh", made(
        "tile_log1p", made("tile_exp", leaves[0])))))
    monkeypatch.setitem(ttir_to_d2m.ELEMENTWISE, "mish", (chain, 1))
    x = torch.randn(SHAPE, generator=torch.Generator().manual_seed(12)) * 3
    (out,), _ = run_program(translate(compile_(module_text("mish", "f32"))), [x])
    assert torch.allclose(out, COMPOSITES["mish"](x), rtol=1e-5, atol=1e-6)
