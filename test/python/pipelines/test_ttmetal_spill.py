"""Where the Metal path's tensors live when L1 cannot hold them all: convert-d2m-to-ttkernel keeps tensors in L1 while
the buffers live at once (CBs included) fit a core's free L1 and spills to DRAM the one whose next use is furthest
away where they do not; the programs then stream it through their CBs. Compiled by `--ttir-to-ttmetal-pipeline` on
one core (override-device-shape=1,1), run on the simulated grid against torch."""

import pytest
import torch

from ttmlir.asm import parse_text
from ttmlir.dialects import make_context
from ttmlir.passes import make_pass
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate


def compile_module(text: str):
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    make_pass("ttir-to-ttmetal-pipeline", "override-device-shape=1,1").apply(ctx, module)
    return module


def buffers(module) -> list[str]:
    return [str(op.results[0].type) for op in module.walk() if op.name == "ttmetal.create_buffer"]


def programs(module) -> list[list[str]]:
    """Each program's buffers (its operands before its CBs: inputs, then the output), by type."""
    return [[str(v.type) for v in op.operands] for op in module.walk() if op.name == "ttmetal.enqueue_program"]


def held_across(n: int) -> str:
    """exp(a) computed first and used last, two programs on b between: with n x n f32 tensors."""
    t = f"tensor<{n}x{n}xf32>"
    return (f"func.func @f(%a: {t}, %b: {t}) -> {t} {{\n"
            f"  %0 = \"ttir.exp\"(%a) : ({t}) -> {t}\n"
            f"  %1 = \"ttir.neg\"(%b) : ({t}) -> {t}\n"
            f"  %2 = \"ttir.abs\"(%1) : ({t}) -> {t}\n"
            f"  %3 = \"ttir.add\"(%2, %0) : ({t}, {t}) -> {t}\n  return %3 : {t}\n}}\n")


def run_held_across(module, n: int) -> None:
    generator = torch.Generator().manual_seed(3)
    a, b = torch.randn(n, n, generator=generator), torch.randn(n, n, generator=generator)
    (out,), _ = run_program(translate(module), [a, b], exact=True)
    assert torch.allclose(out, torch.abs(-b) + torch.exp(a), rtol=1e-5, atol=1e-5)


def test_the_tensor_held_longest_is_spilled_when_l1_cannot_hold_three():
    # 384x384 f32 is 576 KiB on the one core: exp(a) beside b and neg(b) would take 1.7 MiB of its 1.43 MiB of
    # free L1. exp(a), used last, goes to DRAM; the others stay in L1.
    module = compile_module(held_across(384))
    dram = [t for t in buffers(module) if "memory_space<dram>" in t]
    assert len(dram) == 1 and "12x12" in dram[0]
    steps = programs(module)
    # a's tilize, exp, b's tilize, neg, abs, add, the result's untilize: no copy brings it back into L1, the add
    # reads it from DRAM
    assert len(steps) == 7
    assert steps[1][1] == dram[0] and steps[-2][1] == dram[0]  # exp writes it, add reads it
    run_held_across(module, 384)


def test_tensors_that_fit_stay_in_l1():
    module = compile_module(held_across(256))  # 256 KiB each: three fit
    assert not [t for t in buffers(module) if "memory_space<dram>" in t]
    run_held_across(module, 256)


@pytest.mark.parametrize("op, golden", [("sum", torch.sum), ("max", torch.amax)])
def test_an_intermediate_larger_than_l1_is_written_and_reduced_through_dram(op, golden):
    # exp(x) takes 4 MiB on the one core: it lives in DRAM, the exp writes it and the reduction reads it a few
    # tiles at a time through CBs of 2 pages
    s, r = "tensor<2048x512xf32>", "tensor<2048x1xf32>"
    module = compile_module(f"func.func @f(%x: {s}) -> {r} {{\n  %0 = \"ttir.exp\"(%x) : ({s}) -> {s}\n"
                            f"  %1 = \"ttir.{op}\"(%0) <{{dim_arg = [1 : i32], keep_dim = true}}> : ({s}) -> {r}\n"
                            f"  return %1 : {r}\n}}\n")
    kinds = buffers(module)
    assert [t for t in kinds if "1x1x64x16x" in t and "memory_space<dram>" in t]
    assert all("1x1x64x16x" not in t for t in kinds if "memory_space<l1>" in t)  # no whole L1 copy of it
    x = torch.randn(2048, 512, generator=torch.Generator().manual_seed(4))
    (out,), _ = run_program(translate(module), [x], exact=True)
    assert torch.allclose(out, golden(torch.exp(x), 1, keepdim=True), rtol=1e-5)


@pytest.mark.parametrize("k, n, dtype, strip_cb", [
    # a 768 KiB f32 output row of tiles: in DRAM, each strip of 32 columns written as it is done
    (32, 6144, "f32", "1x1x1x32x"),
    # a 400 KiB bf16 output kept in L1; B's two K tiles across all 200 columns would not fit beside it: strips
    # of 50 columns, all of K at once
    (64, 6400, "bf16", "1x1x2x50x"),
])
def test_a_wide_matmul_output_is_computed_in_strips_of_columns(k, n, dtype, strip_cb):
    ta, tb, tc = (f"tensor<{r}x{c}x{dtype}>" for r, c in ((32, k), (k, n), (32, n)))
    module = compile_module(f"func.func @mm(%a: {ta}, %b: {tb}) -> {tc} {{\n"
                            f"  %0 = \"ttir.matmul\"(%a, %b) : ({ta}, {tb}) -> {tc}\n  return %0 : {tc}\n}}\n")
    kinds = buffers(module)
    assert [t for t in kinds if strip_cb in t and "memory_space<l1>" in t]  # B's blocks of one strip
    torch_type = {"f32": torch.float32, "bf16": torch.bfloat16}[dtype]
    generator = torch.Generator().manual_seed(6)
    a, b = (torch.randn(shape, generator=generator).to(torch_type).float() for shape in ((32, k), (k, n)))
    (out,), _ = run_program(translate(module), [a, b], exact=dtype == "f32")
    expected = (a @ b).to(torch_type).float()
    assert torch.allclose(out, expected, rtol=2e-2 if dtype == "bf16" else 1e-5, atol=2e-1 if dtype == "bf16" else 1e-4)


@pytest.mark.parametrize("k, steps", [(512, 1), (16384, 2)])
def test_a_bf16_matmul_sums_k_in_f32(k, steps):
    # bf16 operands, K of hundreds to thousands: the dst register sums the products in f32 (fp32_dest_acc_en on the compute
    # kernel) and, over several K steps, the partial sums wait in an f32 CB; the output is then the f32 sum
    # rounded once, within an ulp of torch's (the order of the f32 adds differs). A bf16 dst rounds the running
    # sum at every K tile and ends several ulps away.
    ta, tb, tc = (f"tensor<{r}x{c}xbf16>" for r, c in ((32, k), (k, 64), (32, 64)))
    module = compile_module(f"func.func @mm(%a: {ta}, %b: {tb}) -> {tc} {{\n"
                            f"  %0 = \"ttir.matmul\"(%a, %b) : ({ta}, {tb}) -> {tc}\n  return %0 : {tc}\n}}\n")
    # the matmul's launch: the last but the result's untilize
    launch = [op for op in module.walk() if op.name == "ttmetal.enqueue_program"][-2]
    assert ", true, false, false, [default]>" in str(launch.properties["kernelConfigs"])  # 32-bit dst
    partials = [t for t in buffers(module) if "f32" in t]
    assert len(partials) == (steps > 1)
    generator = torch.Generator().manual_seed(8)
    a, b = (torch.randn(shape, generator=generator).to(torch.bfloat16).float() for shape in ((32, k), (k, 64)))
    (out,), _ = run_program(translate(module), [a, b])
    expected = (a.double() @ b.double()).float()
    ulp = torch.exp2(torch.floor(torch.log2(expected.abs().clamp_min(1e-30))) - 7)
    assert ((out - expected).abs() <= ulp).all()
