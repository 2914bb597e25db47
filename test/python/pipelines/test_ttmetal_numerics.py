"""Numerics of the kernel path that models depend on, each once a wrong answer: a bf16 matmul with a long inner
dimension accumulates in the 16-bit dst (f32 dst only for 32-bit operands, as upstream's D2M-to-TTMetal sets
it), where the hardware rounds each sum (to TF32, then bf16, ties away from zero); dropping the low bits instead
biased every partial sum toward zero, and falcon's 9216-deep down projection lost PCC to 0.97."""

import torch

from test_ttmetal_pipeline import compile_ttir
from ttmlir.runtime import numerics
from ttmlir.runtime.golden import pcc
from ttmlir.runtime.metal.program import run_program


def test_long_bf16_matmul_in_a_16_bit_dst_stays_close_to_the_f32_product():
    m, k, n = 32, 4096, 64
    source = (f"func.func @f(%a: tensor<{m}x{k}xbf16>, %b: tensor<{k}x{n}xbf16>) -> tensor<{m}x{n}xbf16> {{\n"
              f"  %0 = \"ttir.matmul\"(%a, %b) : (tensor<{m}x{k}xbf16>, tensor<{k}x{n}xbf16>) -> tensor<{m}x{n}xbf16>\n"
              f"  return %0 : tensor<{m}x{n}xbf16>\n}}\n")
    generator = torch.Generator().manual_seed(0)
    a = torch.randn(m, k, generator=generator).bfloat16()
    b = (torch.randn(k, n, generator=generator) / k ** 0.5).bfloat16()
    (out,), _ = run_program(compile_ttir(source), [a, b])
    assert pcc(a.float() @ b.float(), out.float()) > 0.9995  # dropping the low bits gave 0.996


def test_dst_rounds_to_tf32_then_bf16_ties_away_from_zero():
    def f32(bits: int) -> float:
        return torch.tensor([bits], dtype=torch.int32).view(torch.float32).item()

    values = torch.tensor([f32(0x3F808000),  # a bf16 tie: away from zero
                           f32(0x3F807FFF),  # below the tie in f32, but TF32 rounds it up onto the tie first
                           f32(0x3F806FFF),  # below the tie after TF32 too: down
                           -f32(0x3F808000), float("nan"), float("inf")])
    want = [f32(0x3F810000), f32(0x3F810000), f32(0x3F800000), -f32(0x3F810000)]
    got = numerics.dst_bf16(values)
    assert got[:4].tolist() == want and torch.isnan(got[4]) and got[5].item() == float("inf")
