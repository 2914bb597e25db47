"""Fused-op custom calls from StableHLO to the simulated device. `tt.flash_mla_prefill` and `tt.indexer_score_dsa`
both ways `--ttnn-resolve-composites` takes them: inlined (their TTIR decomposition) and promoted to the fused TTNN
op; either way the result matches attention / the DSA indexer written here in torch. `tt.sparse_matmul` (nnz 0:
counted at run time) against the block products it skips or keeps."""

from __future__ import annotations

import math

import pytest
import torch

from ttmlir.asm import parse_text, print_module
from ttmlir.compiler import compile_ttir
from ttmlir.diagnostics import DiagnosticError
from ttmlir.dialects import make_context
from ttmlir.passes import PassFailure, stablehlo_to_ttir_pipeline
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program

GEN = torch.Generator().manual_seed(3)


def t(*shape: int) -> torch.Tensor:
    return torch.randn(*shape, generator=GEN).to(torch.bfloat16)


def ty(shape) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xbf16>"


def call(target: str, shapes: list, result, attrs: dict[str, str]) -> str:
    args = ", ".join(f"%a{i}: {ty(s)}" for i, s in enumerate(shapes))
    names = ", ".join(f"%a{i}" for i in range(len(shapes)))
    front = ", ".join(f'{k} = "{v}"' for k, v in attrs.items())
    extra = f", mhlo.frontend_attributes = {{{front}}}" if attrs else ""
    return (f"module {{\n  func.func public @main({args}) -> {ty(result)} {{\n"
            f"    %0 = stablehlo.custom_call @{target}({names}) {{api_version = 0 : i32{extra}}} : "
            f"({', '.join(ty(s) for s in shapes)}) -> {ty(result)}\n    return %0 : {ty(result)}\n  }}\n}}\n")


def compile_and_run(text: str, inputs: list[torch.Tensor], options: str, arch: str) -> torch.Tensor:
    module, _ = parse_text(make_context(), text)
    stablehlo_to_ttir_pipeline(module)
    binary = Binary(data=compile_ttir(print_module(module), pipeline_options=options))
    outputs, _ = run_program(binary, 0, inputs, MeshDevice(arch=arch))
    return outputs[0].data.float()


def pcc(a: torch.Tensor, b: torch.Tensor) -> float:
    finite = torch.isfinite(b)
    assert torch.equal(finite, torch.isfinite(a)), "masked positions differ"
    a, b = a[finite].double(), b[finite].double()
    return float(torch.corrcoef(torch.stack([a, b]))[0, 1])


def attention(q, k, v, mask, causal: bool, scale: float) -> torch.Tensor:
    """Per query head h, the key/value head h // (Hq / Hkv) attends: softmax(q kᵀ scale + mask) v."""
    q, k, v = q.double(), k.double(), v.double()
    group = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
    scores = torch.einsum("bhsd,bhtd->bhst", q, k) * scale
    if mask is not None:
        scores = scores + mask.double()
    if causal:
        scores = scores.masked_fill(torch.ones(q.shape[2], k.shape[2], dtype=torch.bool).triu(1), -math.inf)
    return torch.einsum("bhst,bhtd->bhsd", scores.softmax(-1), v)


def indexer(q, k, w, start: int) -> torch.Tensor:
    per_head = torch.relu(torch.einsum("bhsd,btd->bhst", q.double(), k[:, 0].double())) * w.double()
    score = per_head.sum(1, keepdim=True)
    future = torch.arange(k.shape[2])[None, :] > start + torch.arange(q.shape[2])[:, None]
    return score.masked_fill(future, -math.inf)


# (query, key, value or None, mask or None, head_dim_v, causal, scale)
FLASH = [((1, 8, 32, 64), (1, 1, 32, 64), None, None, 32, True, None),  # MLA: V from the latent K
         ((1, 4, 32, 64), (1, 2, 32, 64), (1, 2, 32, 48), None, 48, True, None),  # GQA with a value
         ((2, 4, 32, 32), (2, 1, 32, 32), (2, 1, 32, 32), (2, 1, 32, 32), 32, False, 0.25)]


@pytest.mark.parametrize("resolution", ["inline", "force-promote"])
@pytest.mark.parametrize("case", FLASH, ids=["latent", "gqa", "mask_scale"])
def test_flash_mla_prefill_matches_attention(case, resolution):
    q_shape, k_shape, v_shape, m_shape, head_dim_v, causal, scale = case
    shapes = [q_shape, k_shape, *(s for s in (v_shape, m_shape) if s is not None)]
    inputs = [t(*s) for s in shapes]
    attrs = {"head_dim_v": str(head_dim_v), "is_causal": str(causal), "has_value": str(v_shape is not None),
             "has_attention_mask": str(m_shape is not None), **({"scale": str(scale)} if scale else {})}
    text = call("tt.flash_mla_prefill", shapes, (*q_shape[:3], head_dim_v), attrs)
    got = compile_and_run(text, inputs, f"composite-resolution={resolution}", "wormhole_b0")
    q, k = inputs[:2]
    v = inputs[2] if v_shape is not None else k[..., :head_dim_v]
    mask = inputs[-1] if m_shape is not None else None
    want = attention(q, k, v, mask, causal, scale or 1 / math.sqrt(q_shape[3]))
    assert got.shape == want.shape and pcc(got, want) > 0.99


@pytest.mark.parametrize("resolution,arch", [("inline", "wormhole_b0"), ("force-promote", "blackhole"),
                                             ("force-promote", "wormhole_b0")])
def test_indexer_score_dsa_matches_the_indexer(resolution, arch):
    # force-promote on Wormhole still inlines: the fused kernel is Blackhole's only
    q, k, w = t(1, 4, 32, 64), t(1, 1, 64, 64), t(1, 4, 32, 1)
    text = call("tt.indexer_score_dsa", [q.shape, k.shape, w.shape], (1, 1, 32, 64), {"chunk_start_idx": "32"})
    got = compile_and_run(text, [q, k, w], f"composite-resolution={resolution} mock-system-desc-arch={arch}", arch)
    assert pcc(got, indexer(q, k, w, 32)) > 0.99


def lowered(text: str, options: str) -> str:
    from ttmlir.compiler import lower_to_ttnn
    module, _ = parse_text(make_context(), text)
    stablehlo_to_ttir_pipeline(module)
    return print_module(lower_to_ttnn(print_module(module), pipeline_options=options))


def test_validate_promotes_only_what_the_fused_kernel_takes():
    single = call("tt.indexer_score_dsa", [(1, 4, 32, 64), (1, 1, 32, 64), (1, 4, 32, 1)], (1, 1, 32, 32), {})
    batched = call("tt.indexer_score_dsa", [(2, 4, 32, 64), (2, 1, 32, 64), (2, 4, 32, 1)], (2, 1, 32, 32), {})
    options = "mock-system-desc-arch=blackhole composite-resolution="
    assert '"ttnn.indexer_score_dsa"' in lowered(single, options + "validate")
    assert '"ttnn.indexer_score_dsa"' not in lowered(batched, options + "validate")  # the kernel takes batch 1
    assert '"ttnn.indexer_score_dsa"' not in lowered(single, options + "auto")  # no optimizer: inlined
    assert '"ttnn.indexer_score_dsa"' in lowered(single, options + "auto optimization-level=1")
    with pytest.raises(DiagnosticError, match="composite-resolution must be one of"):
        lowered(single, options + "sometimes")


@pytest.mark.parametrize("attrs,message", [
    ({"head_dim_v": "0"}, "head_dim_v attribute must be a positive integer"),
    ({"head_dim_v": "64", "has_value": "True"}, "Mismatch between operands"),
    ({"head_dim_v": "64", "is_causal": "maybe"}, "is_causal attribute must be true or false"),
    ({"head_dim_v": "128"}, "head_dim_v cannot exceed"),
    ({}, "must have mhlo.frontend_attributes")])
def test_bad_flash_mla_prefill_calls_are_refused(attrs, message):
    text = call("tt.flash_mla_prefill", [(1, 8, 32, 64), (1, 1, 32, 64)], (1, 8, 32, 64), attrs)
    module, _ = parse_text(make_context(), text)
    with pytest.raises(PassFailure, match=message):
        stablehlo_to_ttir_pipeline(module)


FUSED = """
func.func @main(%q: tensor<1x4x32x64xbf16>, %k: tensor<1x1x32x64xbf16>, %v: tensor<1x1x32x32xbf16>, %w: tensor<1x4x32x1xbf16>) -> (tensor<1x4x32x32xbf16>, tensor<1x4x32x32xbf16>, tensor<1x1x32x32xbf16>) {
  %0 = "ttcore.composite"(%q, %k) <{composite_name = "flash_mla_prefill", decomposition = @unused, composite_attributes = {head_dim_v = 32 : ui32, is_causal = true, has_value = false, has_attention_mask = false}}> : (tensor<1x4x32x64xbf16>, tensor<1x1x32x64xbf16>) -> tensor<1x4x32x32xbf16>
  %1 = "ttcore.composite"(%q, %k, %v) <{composite_name = "flash_mla_prefill", decomposition = @unused_v, composite_attributes = {head_dim_v = 32 : ui32, is_causal = false, scale = 0.5 : f32, has_value = true, has_attention_mask = false}}> : (tensor<1x4x32x64xbf16>, tensor<1x1x32x64xbf16>, tensor<1x1x32x32xbf16>) -> tensor<1x4x32x32xbf16>
  %2 = "ttcore.composite"(%q, %k, %w) <{composite_name = "indexer_score_dsa", decomposition = @unused_i, composite_attributes = {chunk_start_idx = 0 : ui32, cluster_axis = 0 : ui32}}> : (tensor<1x4x32x64xbf16>, tensor<1x1x32x64xbf16>, tensor<1x4x32x1xbf16>) -> tensor<1x1x32x32xbf16>
  return %0, %1, %2 : tensor<1x4x32x32xbf16>, tensor<1x4x32x32xbf16>, tensor<1x1x32x32xbf16>
}
func.func private @unused(%q: tensor<1x4x32x64xbf16>, %k: tensor<1x1x32x64xbf16>) -> tensor<1x4x32x32xbf16> {
  %0 = "ttir.slice_static"(%q) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 4 : i32, 32 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x4x32x64xbf16>) -> tensor<1x4x32x32xbf16>
  return %0 : tensor<1x4x32x32xbf16>
}
func.func private @unused_v(%q: tensor<1x4x32x64xbf16>, %k: tensor<1x1x32x64xbf16>, %v: tensor<1x1x32x32xbf16>) -> tensor<1x4x32x32xbf16> {
  %0 = "ttir.slice_static"(%q) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 4 : i32, 32 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x4x32x64xbf16>) -> tensor<1x4x32x32xbf16>
  return %0 : tensor<1x4x32x32xbf16>
}
func.func private @unused_i(%q: tensor<1x4x32x64xbf16>, %k: tensor<1x1x32x64xbf16>, %w: tensor<1x4x32x1xbf16>) -> tensor<1x1x32x32xbf16> {
  %0 = "ttir.slice_static"(%q) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 1 : i32, 32 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x4x32x64xbf16>) -> tensor<1x1x32x32xbf16>
  return %0 : tensor<1x1x32x32xbf16>
}
"""


def test_fused_ops_in_python_and_cpp_equal_the_flatbuffer(tmp_path):
    """ttnn's spellings (flash_mla_prefill's V-or-head_dim_v overload, the indexer's seq_shard_axes list) run on
    the simulated ttnn to what the flatbuffer computes, and the promoted ops (not their placeholder
    decompositions) compute attention and the indexer."""
    from ttmlir.compiler import lower
    from ttmlir.target.host_cpp import translate_to_cpp
    from ttmlir.target.python import translate_to_python
    from emit_runners import run_emitc
    from emit_runners import run_emitpy

    options = "composite-resolution=force-promote mock-system-desc-arch=blackhole"
    binary = compile_ttir(FUSED, pipeline_options=options)
    py = translate_to_python(lower(FUSED, "<test>", "ttir-to-emitpy-pipeline", options))
    assert "ttnn.transformer.flash_mla_prefill(var_0, var_1, 32, attn_mask=None, is_causal=True" in py
    assert "seq_shard_axes=[0])" in py
    (result,) = run_emitpy(tmp_path, py, binary)
    assert result["result"] == "pass", result["exception"]
    cpp = translate_to_cpp(lower(FUSED, "<test>", "ttir-to-emitc-pipeline", options))
    result = run_emitc(tmp_path, cpp, binary)
    assert result["result"] == "pass", result["exception"]
    q, k, v, w = t(1, 4, 32, 64), t(1, 1, 32, 64), t(1, 1, 32, 32), t(1, 4, 32, 1)
    outputs, _ = run_program(Binary(data=binary), 0, [q, k, v, w], MeshDevice(arch="blackhole"))
    got = [o.data.float() for o in outputs]
    assert pcc(got[0], attention(q, k, k[..., :32], None, True, 1 / 8)) > 0.99
    assert pcc(got[1], attention(q, k, v, None, False, 0.5)) > 0.99
    assert pcc(got[2], indexer(q, k, w, 0)) > 0.99


def test_sparse_matmul_call_keeps_the_blocks_its_sparsity_marks():
    """Token groups [A, B, M, K] times each expert's [K, N] where sparsity [A, B, 1, E] is nonzero, zero elsewhere."""
    text = """module {
  func.func public @main(%a: tensor<2x2x32x64xbf16>, %w: tensor<1x3x64x32xbf16>, %s: tensor<2x2x1x3xbf16>) -> tensor<2x2x1x3x32x32xbf16> {
    %0 = stablehlo.custom_call @tt.sparse_matmul(%a, %w, %s) {api_version = 0 : i32, mhlo.frontend_attributes = {is_input_a_sparse = "False", is_input_b_sparse = "True", nnz = "0"}} : (tensor<2x2x32x64xbf16>, tensor<1x3x64x32xbf16>, tensor<2x2x1x3xbf16>) -> tensor<2x2x1x3x32x32xbf16>
    return %0 : tensor<2x2x1x3x32x32xbf16>
  }
}"""
    a, w = t(2, 2, 32, 64), t(1, 3, 64, 32)
    s = torch.tensor([[1, 0, 1], [0, 0, 1], [1, 1, 1], [0, 1, 0]], dtype=torch.bfloat16).reshape(2, 2, 1, 3)
    got = compile_and_run(text, [a, w, s], "", "wormhole_b0")
    want = torch.zeros(2, 2, 1, 3, 32, 32, dtype=torch.float64)
    for i, j, e in ((i, j, e) for i in range(2) for j in range(2) for e in range(3)):
        if s[i, j, 0, e]:
            want[i, j, 0, e] = a[i, j].double() @ w[0, e].double()
    assert torch.equal(got == 0, want == 0) and pcc(got, want) > 0.99
