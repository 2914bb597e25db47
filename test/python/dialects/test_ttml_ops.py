"""tt-train's fused training ops (ttir.adamw, sdpa_fw, sdpa_bw) compiled through the TTNN pipeline and run on the
simulated device, against torch: torch.optim.AdamW's step, torch's attention and its autograd gradients."""

import math

import pytest
import torch
import torch.nn.functional as F

from ttmlir.compiler import compile_ttir
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program


def _run(text: str, inputs: list[torch.Tensor]):
    outputs, _ = run_program(Binary(data=compile_ttir(text)), 0, inputs, MeshDevice(), exact=True)
    return [t.data.float() for t in outputs]


def ty(shape, dtype="f32"):
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"


STEP = dict(lr=1e-2, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.05)
T = 3  # the step being taken: bias corrections use beta^T


def _adamw_text(shape, amsgrad: bool) -> str:
    n = 5 if amsgrad else 4
    args = ", ".join(f"%a{i}: {ty(shape)}" for i in range(n))
    results = ", ".join([ty(shape)] * (n - 1))
    (b1, b2), lr = STEP["betas"], STEP["lr"]
    values = dict(lr=lr, beta1=b1, beta2=b2, beta1_pow=b1 ** T, beta2_pow=b2 ** T, epsilon=STEP["eps"],
                  weight_decay=STEP["weight_decay"])
    props = ", ".join(f"{name} = {value:e} : f32" for name, value in values.items())
    names = ", ".join(f"%r#{i}" for i in range(n - 1))
    return (f"func.func @step({args}) -> ({results}) {{\n"
            f'  %r:{n - 1} = "ttir.adamw"({", ".join(f"%a{i}" for i in range(n))}) <{{{props}}}> : '
            f"({', '.join([ty(shape)] * n)}) -> ({results})\n"
            f"  return {names} : {results}\n}}\n")


@pytest.mark.parametrize("shape,amsgrad", [((64, 96), False), ((1, 1, 32, 64), True), ((3, 32, 32), False)])
def test_adamw_is_torch_adamw_step(shape, amsgrad):
    """ttnn.adamw writes param and moments in place; the function returns them (rank 2 and 3 run as rank 4)."""
    g = torch.Generator().manual_seed(1)
    # the kernel reads its gradient in bf16: one whose values are bf16 loses nothing to the conversion
    param, grad = torch.randn(shape, generator=g), torch.randn(shape, generator=g).bfloat16().float()
    exp_avg, exp_avg_sq = torch.randn(shape, generator=g) * 0.1, torch.rand(shape, generator=g) * 0.01
    state = [exp_avg, exp_avg_sq] + ([exp_avg_sq * torch.rand(shape, generator=g) * 2] if amsgrad else [])
    outs = _run(_adamw_text(shape, amsgrad), [param, grad, *state])

    golden = torch.nn.Parameter(param.clone())
    optimizer = torch.optim.AdamW([golden], amsgrad=amsgrad, **STEP)
    golden.grad = grad.clone()
    optimizer.state[golden] = {"step": torch.tensor(float(T - 1)), "exp_avg": exp_avg.clone(),
                               "exp_avg_sq": exp_avg_sq.clone(),
                               **({"max_exp_avg_sq": state[2].clone()} if amsgrad else {})}
    optimizer.step()
    want = [golden.detach(), optimizer.state[golden]["exp_avg"], optimizer.state[golden]["exp_avg_sq"]]
    if amsgrad:
        want.append(optimizer.state[golden]["max_exp_avg_sq"])
    for got, expected in zip(outs, want, strict=True):
        torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-6)


def test_adamw_stochastic_rounding_is_unbiased_in_bf16():
    """A bf16 param updated by less than half its last place moves only with stochastic rounding, in proportion."""
    shape = (64, 64)
    text = _adamw_text(shape, False).replace("xf32>", "xbf16>").replace(
        "weight_decay = ", "stochastic_rounding = true, weight_decay = ")
    param = torch.full(shape, 1.0, dtype=torch.bfloat16)
    grad = torch.full(shape, 1.0, dtype=torch.bfloat16)
    zeros = torch.zeros(shape, dtype=torch.bfloat16)
    new = _run(text, [param, grad, zeros, zeros])[0]
    assert set(new.unique().tolist()) <= {1.0, 1.0 - 2 ** -8, 1.0 - 2 ** -7}  # bf16 neighbours below 1.0
    nearest = _run(text.replace("stochastic_rounding = true", "stochastic_rounding = false"),
                   [param, grad, zeros, zeros])[0]
    exact = 1.0 * (1 - STEP["lr"] * STEP["weight_decay"]) - STEP["lr"] * (
        (1 - STEP["betas"][0]) / (1 - STEP["betas"][0] ** T)) / (
        math.sqrt((1 - STEP["betas"][1]) / (1 - STEP["betas"][1] ** T)) + STEP["eps"])
    assert abs(new.mean().item() - exact) < abs(nearest.mean().item() - exact)


def test_adamw_operand_read_after_the_step_is_refused():
    shape = (1, 1, 32, 32)
    t = ty(shape)
    head, body = _adamw_text(shape, False).split("\n", 1)
    text = (head.replace(f"-> ({t}", f"-> ({t}, {t}") + "\n" + body.replace(
        "  return %r#0", f'  %n = "ttir.neg"(%a0) : ({t}) -> {t}\n  return %n, %r#0').replace(
        f"%r#2 : {t}", f"%r#2 : {t}, {t}"))
    with pytest.raises(Exception, match="param operand is read after the step"):
        compile_ttir(text)


def _attention(q, k, v, mask_kind, mask):
    group = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
    attn_mask = mask.bool() if mask_kind == "arbitrary" else None
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=mask_kind == "causal")


def _inputs(shape_q, shape_kv, mask_kind, seed=0):
    g = torch.Generator().manual_seed(seed)
    q, k, v = torch.randn(shape_q, generator=g), torch.randn(shape_kv, generator=g), torch.randn(shape_kv, generator=g)
    s = shape_q[2]
    mask = (torch.rand(1, 1, s, s, generator=g) > 0.3).float()
    mask[..., torch.arange(s), torch.arange(s)] = 1.0  # no row masked entirely
    return q, k, v, mask


def _sdpa_text(shape_q, shape_kv, mask_kind, dtype="f32") -> str:
    s = shape_q[2]
    mask = mask_kind == "arbitrary"
    inter = (*shape_q[:3], 32)
    args = [f"%q: {ty(shape_q, dtype)}", f"%k: {ty(shape_kv, dtype)}", f"%v: {ty(shape_kv, dtype)}",
            f"%g: {ty(shape_q, dtype)}"] + ([f"%m: {ty((1, 1, s, s), dtype)}"] if mask else [])
    qkv_types = f"{ty(shape_q, dtype)}, {ty(shape_kv, dtype)}, {ty(shape_kv, dtype)}"
    mask_type = f"ttcore.attention_mask_type<{mask_kind}>"
    m, mt = (", %m", f", {ty((1, 1, s, s), dtype)}") if mask else ("", "")
    return (f"func.func @train({', '.join(args)}) -> ({ty(shape_q, dtype)}, {qkv_types}) {{\n"
            f'  %o, %lse = "ttir.sdpa_fw"(%q, %k, %v{m}) <{{mask_type = #{mask_type}, return_intermediates = true}}> '
            f": ({qkv_types}{mt}) -> ({ty(shape_q, dtype)}, {ty(inter)})\n"
            f'  %dq, %dk, %dv = "ttir.sdpa_bw"(%g, %o, %q, %k, %v, %lse{m}) <{{mask_type = #{mask_type}}}> : '
            f"({ty(shape_q, dtype)}, {ty(shape_q, dtype)}, {qkv_types}, {ty(inter)}{mt}) -> ({qkv_types})\n"
            f"  return %o, %dq, %dk, %dv : {ty(shape_q, dtype)}, {qkv_types}\n}}\n")


@pytest.mark.parametrize("shape_q,shape_kv,mask_kind", [
    ((1, 4, 64, 32), (1, 4, 64, 32), "causal"),
    ((2, 4, 32, 64), (2, 2, 32, 64), "arbitrary"),  # grouped-query attention
    ((1, 2, 32, 32), (1, 1, 32, 32), "none"),
])
def test_sdpa_forward_and_backward_match_torch_autograd(shape_q, shape_kv, mask_kind):
    """sdpa_fw's output and sdpa_bw's gradients (fed sdpa_fw's log-sum-exp) against torch's attention and autograd
    in f32 on the same bf16 values: apart only by the kernels' bf16 results (the output sdpa_bw reads is bf16)."""
    q, k, v, mask = (t.to(torch.bfloat16) for t in _inputs(shape_q, shape_kv, mask_kind))
    grad = torch.randn(shape_q, generator=torch.Generator().manual_seed(7)).to(torch.bfloat16)
    inputs = [q, k, v, grad] + ([mask] if mask_kind == "arbitrary" else [])
    out, dq, dk, dv = _run(_sdpa_text(shape_q, shape_kv, mask_kind, "bf16"), inputs)

    leaves = [t.float().requires_grad_() for t in (q, k, v)]
    golden = _attention(*leaves, mask_kind, mask.float())
    golden.backward(grad.float())
    for got, want in zip((out, dq, dk, dv), (golden.detach(), *(leaf.grad for leaf in leaves))):
        torch.testing.assert_close(got, want, rtol=0.03, atol=0.03)
        assert F.cosine_similarity(got.flatten(), want.flatten(), dim=0) > 0.9999


def test_sdpa_in_f32_runs_in_bf16():
    """The kernels read bf16 (the workaround casts f32 in and out): close to f32 torch, not equal."""
    shape = (1, 2, 32, 64)
    q, k, v, mask = _inputs(shape, shape, "causal", seed=3)
    grad = torch.randn(shape, generator=torch.Generator().manual_seed(5))
    out, dq, _, _ = _run(_sdpa_text(shape, shape, "causal"), [q, k, v, grad])
    golden = _attention(q, k, v, "causal", mask)
    assert 0 < (out - golden).abs().max() < 0.05
    assert F.cosine_similarity(out.flatten(), golden.flatten(), dim=0) > 0.9999
