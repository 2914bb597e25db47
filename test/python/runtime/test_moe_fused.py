"""moe_compute end to end on a simulated 1x2 mesh: tokens dispatched to their experts' chips
(all_to_all_dispatch_metadata), each expert's FFN on its chip from prepacked weights, the rows combined back per
token and k; checked against a torch reference written here and against the builder's golden."""

import pytest
import torch
import torch.nn.functional as F

from golden.mesh import MESH_GOLDENS
from ttmlir.compiler import compile_ttir
from ttmlir.runtime import moe_fused
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, release, run_program

MESH, TOKENS, HIDDEN, INTER, K, EXPERTS = (1, 2), 32, 64, 32, 2, 4
LOCAL = EXPERTS // 2
CHIP_OF = [0, 1, 0, 1]  # experts 0 and 2 on chip 0, 1 and 3 on chip 1 (ranks 0 and 1 on each)


def ty(shape, dtype="bf16"):
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"


def shard(value, shape, out, dims, direction="full_to_shard", kind="devices", dtype="bf16"):
    return (f'"ttir.mesh_shard"({value}) <{{shard_dims = array<i64: {dims[0]}, {dims[1]}>, '
            f"shard_direction = #ttcore.shard_direction<{direction}>, shard_shape = array<i64: {MESH[0]}, {MESH[1]}>, "
            f"shard_type = #ttcore.shard_type<{kind}>}}> : ({ty(shape, dtype)}) -> {ty(out, dtype)}")


def program(activation: str, bias: bool) -> str:
    m, line = TOKENS, 2 * TOKENS
    x, idx, w01, w2 = (2, 1, m, HIDDEN), (2, 1, m, K), (1, EXPERTS, HIDDEN, INTER), (1, EXPERTS, INTER, HIDDEN)
    part = lambda s: (1, *s[1:])  # noqa: E731
    local = lambda s: (1, LOCAL, *s[2:])  # noqa: E731
    b01, b2 = (1, EXPERTS, INTER), (1, EXPERTS, HIDDEN)
    bias_args = f", %b0: {ty(b01)}, %b1: {ty(b01)}, %b2: {ty(b2)}" if bias else ""
    bias_ops = "".join(f"  %b{i}s = {shard(f'%b{i}', s, local(s), (-1, 1))}\n" for i, s in enumerate((b01, b01, b2))) \
        if bias else ""
    bias_vals, bias_types = (", %b0s, %b1s, %b2s", f", {ty(local(b01))}, {ty(local(b01))}, {ty(local(b2))}") \
        if bias else ("", "")
    segments = "1, 1, 1, 1, 1, 1, 1, " + ("1, 1, 1" if bias else "0, 0, 0")
    return f"""func.func @f(%x: {ty(x)}, %idx: {ty(idx, "i32")}, %s: {ty(idx)}, %map4: {ty((1, 1, 2, EXPERTS), "i32")}, %map: {ty((1, EXPERTS), "i32")}, %w0: {ty(w01)}, %w1: {ty(w01)}, %w2: {ty(w2)}{bias_args}) -> {ty((K, line, HIDDEN))} {{
  %0 = {shard("%x", x, part(x), (-1, 0))}
  %1 = {shard("%idx", idx, part(idx), (-1, 0), dtype="i32")}
  %2 = {shard("%s", idx, part(idx), (-1, 0))}
  %3 = {shard("%w0", w01, local(w01), (-1, 1))}
  %4 = {shard("%w1", w01, local(w01), (-1, 1))}
  %5 = {shard("%w2", w2, local(w2), (-1, 1))}
{bias_ops}  %6, %7, %8 = "ttir.all_to_all_dispatch_metadata"(%0, %1, %2, %map4) <{{cluster_axis = 1 : i64, num_devices = 2 : i64}}> : ({ty(part(x))}, {ty(part(idx), "i32")}, {ty(part(idx))}, {ty((1, 1, 2, EXPERTS), "i32")}) -> ({ty((1, line, HIDDEN))}, {ty((1, line, K), "i32")}, {ty((1, line, K))})
  %9 = "ttir.moe_compute"(%6, %7, %8, %map, %3, %4, %5{bias_vals}) <{{operandSegmentSizes = array<i32: {segments}>, layer_id = 0 : ui32, output_height_shard_dim = 4 : ui32, intermediate_size = {INTER} : ui32, activation_function = #ttcore.moe_activation_function<{activation}>, cluster_axis = 1 : ui32}}> : ({ty((1, line, HIDDEN))}, {ty((1, line, K), "i32")}, {ty((1, line, K))}, {ty((1, EXPERTS), "i32")}, {ty(local(w01))}, {ty(local(w01))}, {ty(local(w2))}{bias_types}) -> {ty((K, m, HIDDEN))}
  %10 = {shard("%9", (K, m, HIDDEN), (K, line, HIDDEN), (-1, 1), "shard_to_full")}
  return %10 : {ty((K, line, HIDDEN))}
}}
"""


def reference(x, idx, weights, biases, activation):
    """Each token's FFN through each of its experts, with that expert's weights (chip-major in the full tensors)."""
    tokens, chosen = x.reshape(-1, HIDDEN).float(), idx.reshape(-1, K)
    out = torch.zeros(K, tokens.shape[0], HIDDEN)
    for t in range(tokens.shape[0]):
        for k in range(K):
            e = int(chosen[t, k])
            slot = CHIP_OF[e] * LOCAL + CHIP_OF[:e].count(CHIP_OF[e])
            w0, w1, w2 = (w[0, slot].float() for w in weights)
            gate, up = tokens[t] @ w0, tokens[t] @ w1
            if biases:
                gate, up = gate + biases[0][0, slot].float(), up + biases[1][0, slot].float()
            if activation == "swiglu":
                gate, up = gate.clamp(max=7.0), up.clamp(-7.0, 7.0)
                inner = (up + 1) * gate * torch.sigmoid(1.702 * gate)
            else:
                inner = F.silu(gate) * up
            y = inner @ w2
            out[k, t] = y + biases[2][0, slot].float() if biases else y
    return out


@pytest.mark.parametrize("activation,bias", [("silu", False), ("swiglu", True)])
def test_moe_compute_runs_each_tokens_experts_on_their_chips(activation, bias):
    torch.manual_seed(0)
    x = torch.randn(2, 1, TOKENS, HIDDEN).bfloat16()
    idx = torch.stack([torch.randperm(EXPERTS)[:K] for _ in range(2 * TOKENS)]).reshape(2, 1, TOKENS, K).int()
    scores = torch.rand(2, 1, TOKENS, K).bfloat16()
    map4 = torch.tensor(CHIP_OF).repeat(2, 1).reshape(1, 1, 2, EXPERTS).int()  # each chip's row: an expert's chip
    mapping = torch.tensor(CHIP_OF).reshape(1, EXPERTS).int()
    weights = [(torch.randn(*s) / s[2] ** 0.5).bfloat16()
               for s in ((1, EXPERTS, HIDDEN, INTER), (1, EXPERTS, HIDDEN, INTER), (1, EXPERTS, INTER, HIDDEN))]
    biases = [torch.randn(*s).bfloat16() for s in ((1, EXPERTS, INTER), (1, EXPERTS, INTER), (1, EXPERTS, HIDDEN))] \
        if bias else []
    binary = Binary(data=compile_ttir(program(activation, bias), pipeline_options="mesh-shape=1,2"))
    (out,), ctx = run_program(binary, 0, [x, idx, scores, map4, mapping, *weights, *biases],
                              MeshDevice(mesh_shape=MESH), exact=True)
    release(ctx.binary.programs[0], ctx, [out])
    assert ctx.device.allocated_bytes()["dram"] == 0  # the combine buffer (the result's tensor) freed once
    want = reference(x, idx, weights, biases, activation)
    torch.testing.assert_close(out.data.float(), want.bfloat16().float(), rtol=2e-2, atol=2e-2)
    # the builder's golden, from the chips' own inputs, says the same
    chips = {"tilize_input_tensor": [], "tilize_expert_indices_tensor": [], "tilize_expert_mapping_tensor": []}
    line_tokens, line_idx = x.reshape(1, -1, HIDDEN), idx.reshape(1, -1, K)
    for chip in range(2):
        routed = torch.tensor([CHIP_OF[int(e)] == chip for e in line_idx[0].flatten()]).reshape(-1, K).any(-1)
        chips["tilize_input_tensor"].append(line_tokens * routed[None, :, None])
        chips["tilize_expert_indices_tensor"].append(line_idx)
        chips["tilize_expert_mapping_tensor"].append(mapping)
    for name, full in zip(("w0", "w1", "w2"), weights):
        chips[name] = [full[:, chip * LOCAL:(chip + 1) * LOCAL] for chip in range(2)]
    for name, full in zip(("bias_0", "bias_1", "bias_2"), biases):
        chips[name] = [full[:, chip * LOCAL:(chip + 1) * LOCAL] for chip in range(2)]
    golden = MESH_GOLDENS["moe_compute"]({k: dict(enumerate(v)) for k, v in chips.items()},
                                         {"cluster_axis": 1, "layer_id": 0, "activation_function": activation}, MESH)[0]
    torch.testing.assert_close(torch.cat([golden[0], golden[1]], dim=1), want, rtol=1e-4, atol=1e-4)


def test_packed_weights_hold_the_biases_in_a_tile_row_below():
    w0, w1, w2 = torch.randn(1, 2, 64, 32), torch.randn(1, 2, 64, 32), torch.randn(1, 2, 32, 64)
    b0, b1, b2 = torch.randn(1, 2, 32), torch.randn(1, 2, 32), torch.randn(1, 2, 64)
    packed = moe_fused.prepare_w0_w1({"w0": w0, "w1": w1, "bias0": b0, "bias1": b1}, None)
    assert packed.shape == (1, 2, 96, 64)
    assert torch.equal(packed[:, :, :64], torch.cat([w0, w1], -1))
    assert torch.equal(packed[:, :, 64], torch.cat([b0, b1], -1))
    assert not packed[:, :, 65:].any()
    assert moe_fused.prepare_w2({"w2": w2}, None).shape == (1, 2, 32, 64)
    assert moe_fused.prepare_w2({"w2": w2, "bias2": b2}, None).shape == (1, 2, 64, 64)
