"""`--ttir-to-ttmetal-pipeline`'s staging options and its frontend: math fidelity, stream buffers, the dst size,
element types normalized as upstream's frontend does; each checked by what the program computes on the simulated
grid against torch, and by what the lowered IR says."""

import pytest
import torch

from ttmlir.asm import parse_text, print_module
from ttmlir.dialects import make_context
from ttmlir.passes import PassFailure, make_pass
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate


def lower(text: str, options: str = ""):
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    make_pass("ttir-to-ttmetal-pipeline", options).apply(ctx, module)
    return module


def matmul(dtype: str) -> str:
    a, b, c = (f"tensor<{s}x{dtype}>" for s in ("64x128", "128x64", "64x64"))
    return (f"func.func @mm(%a: {a}, %b: {b}) -> {c} {{\n"
            f"  %0 = \"ttir.matmul\"(%a, %b) : ({a}, {b}) -> {c}\n  return %0 : {c}\n}}\n")


def test_set_math_fidelity_sets_every_compute_kernel_and_lofi_loses_precision():
    generator = torch.Generator().manual_seed(1)
    a, b = (torch.randn(*s, generator=generator).bfloat16().float() for s in ((64, 128), (128, 64)))
    expected = a @ b
    errors = {}
    for fidelity in ("LoFi", "HiFi4"):
        module = lower(matmul("bf16"), f"set-math-fidelity={fidelity}")
        configs = [line for line in print_module(module).splitlines() if "compute_config<" in line]
        assert configs and all(f">, {fidelity.lower()}, " in line for line in configs)
        (out,), _ = run_program(translate(module), [a, b])
        errors[fidelity] = (out - expected).abs().mean().item()
    assert errors["LoFi"] > 2 * errors["HiFi4"]  # LoFi multiplies only the mantissas' high bits


def test_an_unknown_math_fidelity_is_refused():
    with pytest.raises(PassFailure, match="set-math-fidelity is one of LoFi, HiFi2, HiFi3, HiFi4"):
        lower(matmul("f32"), "set-math-fidelity=HiFi5")


@pytest.mark.parametrize("buffers", [1, 3])
def test_num_stream_buffers_sizes_the_streaming_cbs(buffers):
    t, r = "tensor<64x256xf32>", "tensor<64x1xf32>"
    text = (f"func.func @s(%a: {t}) -> {r} {{\n"
            f"  %0 = \"ttir.sum\"(%a) <{{dim_arg = [1 : i32], keep_dim = true}}> : ({t}) -> {r}\n"
            f"  return %0 : {r}\n}}\n")
    ctx = make_context()
    kernels, _ = parse_text(ctx, text)  # the kernels before emitc: their CB types say the pages
    make_pass("ttcore-register-device", "").apply(ctx, kernels)
    for flag, options in (("ttir-to-d2m", ""), ("d2m-grid-selection", ""),
                          ("convert-d2m-to-ttkernel", f"num-stream-buffers={buffers}")):
        make_pass(flag, options).apply(ctx, kernels)
    assert f"!ttkernel.cb<{buffers}, !ttcore.tile<32x32, f32>>" in print_module(kernels)
    module = lower(text, f"num-stream-buffers={buffers}")
    x = torch.randn(64, 256, generator=torch.Generator().manual_seed(2))
    (out,), _ = run_program(translate(module), [x])
    assert torch.allclose(out, x.sum(1, keepdim=True), rtol=1e-5, atol=1e-4)


def test_no_stream_buffer_is_refused():
    with pytest.raises(PassFailure, match="num-stream-buffers is at least 1"):
        lower(matmul("f32"), "num-stream-buffers=0")


def test_max_dst_physical_size_tiles_bounds_what_a_fused_tree_holds():
    """x = -a0, then x = x + exp(ai): fused, the kernel computes the exps first (the body's order) and holds them
    in dst at once; the chip's dst (8 tiles for the math thread) holds them all, a dst of 4 (2 for the math thread)
    does not and the graph is split into programs."""
    t = "tensor<32x32xf32>"
    args = ", ".join(f"%a{i}: {t}" for i in range(6))
    body, last = [f"  %x0 = \"ttir.neg\"(%a0) : ({t}) -> {t}"], "%x0"
    for i in range(1, 6):
        body.append(f"  %e{i} = \"ttir.exp\"(%a{i}) : ({t}) -> {t}")
        body.append(f"  %x{i} = \"ttir.add\"({last}, %e{i}) : ({t}, {t}) -> {t}")
        last = f"%x{i}"
    text = f"func.func @wide({args}) -> {t} {{\n" + "\n".join(body) + f"\n  return {last} : {t}\n}}\n"
    xs = [torch.randn(32, 32, generator=torch.Generator().manual_seed(i)) * 0.5 for i in range(6)]
    expected = -xs[0] + sum(torch.exp(x) for x in xs[1:])
    counts = {}
    for size in (0, 4):
        module = lower(text, f"enable-elementwise-fusion=true max-dst-physical-size-tiles={size}")
        (out,), stats = run_program(translate(module), xs)
        assert torch.allclose(out, expected, rtol=1e-4, atol=1e-4)
        counts[size] = len(stats) - 6 - 1  # past the six inputs' tilizes, before the result's untilize
    assert counts[0] == 1 and counts[4] > 1


REDUCED_PRODUCTS = {  # (TTIR body over %x and %y, 64x96 each, and its torch value)
    "exp_then_row_sum": ('%0 = "ttir.exp"(%x) : (T, T) -> T', "sum", 1, lambda x, y: x.exp().sum(1, keepdim=True)),
    "product_then_col_max": ('%0 = "ttir.multiply"(%x, %y) : (T, T) -> T', "max", 0,
                             lambda x, y: (x * y).amax(0, keepdim=True)),
    "square_then_row_sum": ('%0 = "ttir.multiply"(%x, %x) : (T, T) -> T', "sum", 1,
                            lambda x, y: (x * x).sum(1, keepdim=True)),
    "integer_sum_then_row_sum": ('%0 = "ttir.add"(%x, %y) : (T, T) -> T', "sum", 1,
                                 lambda x, y: (x + y).sum(1, keepdim=True)),  # on the SFPU, exact
}


@pytest.mark.parametrize("case", REDUCED_PRODUCTS)
def test_eltwise_reduction_fusion_reduces_the_fused_ops_tiles_in_one_program(case):
    op, pool, dim, reference = REDUCED_PRODUCTS[case]
    element = "i32" if case.startswith("integer") else "f32"
    t, r = (f"tensor<{shape}x{element}>" for shape in ("64x96", "64x1" if dim == 1 else "1x96"))
    op = op.replace("(T, T) -> T", f"({t}, {t}) -> {t}" if "exp" not in op else f"({t}) -> {t}")
    text = (f"func.func @f(%x: {t}, %y: {t}) -> {r} {{\n  {op}\n  %1 = \"ttir.{pool}\"(%0) <{{dim_arg = [{dim} : i32], "
            f"keep_dim = true}}> : ({t}) -> {r}\n  return %1 : {r}\n}}\n")
    g = torch.Generator().manual_seed(4)
    x, y = torch.randn(64, 96, generator=g), torch.randn(64, 96, generator=g)
    if element == "i32":
        x, y = ((v * 1000).round() for v in (x, y))
    launches = {}
    for fused in (False, True):
        module = lower(text, f"override-device-shape=1,1 enable-eltwise-reduction-fusion={str(fused).lower()}")
        (out,), stats = run_program(translate(module), [x, y])
        expected = reference(x, y)
        assert torch.equal(out.float(), expected) if element == "i32" else torch.allclose(out, expected, 1e-4, 1e-4)
        launches[fused] = len(stats)
    assert launches[True] == launches[False] - 1  # the elementwise program is computed inside the reduction's


def test_i64_and_f64_graphs_run_normalized_to_si32_and_f32():
    text = """func.func @n(%a: tensor<64x64xi64>, %x: tensor<32x64xf64>) -> (tensor<64x64xi64>, tensor<32x64xf64>) {
  %s = "ttir.add"(%a, %a) : (tensor<64x64xi64>, tensor<64x64xi64>) -> tensor<64x64xi64>
  %0 = "ttir.abs"(%s) : (tensor<64x64xi64>) -> tensor<64x64xi64>
  %1 = "ttir.exp"(%x) : (tensor<32x64xf64>) -> tensor<32x64xf64>
  return %0, %1 : tensor<64x64xi64>, tensor<32x64xf64>
}
"""
    module = lower(text)
    printed = print_module(module)
    assert "xi64>" not in printed and "xf64>" not in printed and "x!ttcore.tile<32x32, si32>" in printed
    generator = torch.Generator().manual_seed(3)
    a = torch.randint(-100000, 100000, (64, 64), generator=generator).float()
    x = torch.randn(32, 64, generator=generator)
    (magnitude, exp), _ = run_program(translate(module), [a, x])
    assert torch.equal(magnitude, (2 * a).abs())  # si32 tiles in a 32-bit dst: exact
    assert torch.allclose(exp, torch.exp(x), rtol=1e-3, atol=1e-3)
