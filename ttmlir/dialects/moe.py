"""Verifiers of the mixture-of-experts ops (TTIR and TTNN), in upstream's words.

sparse_matmul multiplies by expert blocks of b = [1, E, K, N], a block only where the sparsity mask is
non-zero; topk_router_gpt is GPT-OSS's router: x @ W + b, its top k experts and their softmax weights.
The expert-parallel exchange around them: all_to_all_dispatch sends each token to the chips of its line (along
cluster_axis) that hold one of its experts, moe_expert_token_remap turns global expert choices into each chip's
local expert weights and block mask, all_to_all_combine brings the expert outputs back to the token's chip.
The ranks are checked in upstream's words; the sizes the exchange depends on are checked too.
"""

from __future__ import annotations

import math

from ttmlir.ir.props import scalar
from ttmlir.ir.tt_op import TTOp


def _shape(value) -> tuple[int, ...]:
    return tuple(value.type.get_shape())


def sparse_matmul_shape(a: tuple[int, ...], b: tuple[int, ...], a_sparse: bool, b_sparse: bool) -> tuple[int, ...]:
    """The result of each mode: dense a by sparse b [A, B, 1, E, M, N]; sparse a [A, E, M, N]."""
    experts, m, n = b[1], a[-2], b[3]
    return (a[0], a[1], 1, experts, m, n) if b_sparse and not a_sparse else (a[0], experts, m, n)


def sparse_matmul(op: TTOp):
    a, b, sparsity, out = (_shape(v) for v in (*op.operands, op.results[0]))
    nnz = op.prop("nnz")
    if nnz is not None and scalar(nnz) <= 0:
        raise op.error("nnz must be greater than 0 when set")
    if len(a) < 4:
        raise op.error("Input A must be at least a 4D tensor")
    if len(b) != 4:
        raise op.error("Input B must be a 4D tensor [1, E, K, N]")
    if len(sparsity) != 4:
        raise op.error("Sparsity tensor must be a 4D tensor")
    a_sparse, b_sparse = scalar(op.prop("is_input_a_sparse")), scalar(op.prop("is_input_b_sparse"))
    if not a_sparse and not b_sparse:
        raise op.error("At least one of is_input_a_sparse or is_input_b_sparse must be true")
    if b[0] != 1:
        raise op.error("Input B first dimension must be 1")
    if a[-1] != b[2]:
        raise op.error("Input A inner dimension must match Input B K dimension")
    if sparsity[-1] != b[1]:
        raise op.error("Sparsity tensor last dimension must match number of experts in Input B")
    mode, rank = (("sparse-sparse", 4) if a_sparse and b_sparse else ("dense-sparse", 6) if b_sparse else
                  ("sparse-dense", 4))
    if len(out) != rank:
        raise op.error(f"Output must be {rank}D for {mode} mode")
    if out != sparse_matmul_shape(a, b, a_sparse, b_sparse):
        names = {"sparse-sparse": "[1, E, M, N]", "dense-sparse": "[A, B, 1, E, M, N]", "sparse-dense": "[A, E, M, N]"}
        raise op.error(f"Output shape must be {names[mode]} for {mode} mode")
    return None


def topk_router_gpt(op: TTOp, ttnn: bool = False):
    x, weight, bias = (_shape(v) for v in op.operands)
    for shape, what in ((x, "input must be a 2D tensor [B, hidden_dim]"),
                        (weight, "weight must be a 2D tensor [hidden_dim, num_experts]"),
                        (bias, "bias must be a 2D tensor [B, num_experts]")):
        if len(shape) != 2:
            raise op.error(f"{what}, but got rank {len(shape)}")
    batch, hidden = x
    if weight[0] != hidden:
        raise op.error(f"weight dim 0 ({weight[0]}) must equal input hidden_dim ({hidden})")
    if bias[0] != batch:
        raise op.error(f"bias dim 0 ({bias[0]}) must equal input batch size B ({batch})")
    if bias[1] != weight[1]:
        raise op.error(f"bias dim 1 ({bias[1]}) must equal weight num_experts ({weight[1]})")
    experts, k = scalar(op.prop("num_experts")), scalar(op.prop("k"))
    if ttnn and batch != 32:  # the fused kernel's fixed tile of tokens and experts
        raise op.error(f"B must be 32, but got: {batch}")
    if ttnn and experts != 128:
        raise op.error(f"num_experts must be 128, but got: {experts}")
    if not ttnn and experts <= 0:
        raise op.error(f"num_experts must be positive, but got: {experts}")
    if experts != weight[1]:
        raise op.error(f"num_experts attribute ({experts}) must equal weight dim 1 ({weight[1]})")
    if k <= 0:
        raise op.error(f"k must be positive, but got: {k}")
    for result, name in zip(op.results, ("expert_indices", "expert_weights")):
        shape = _shape(result)
        if len(shape) != 2:
            raise op.error(f"{name} must be a 2D tensor [B, k], but got rank {len(shape)}")
        if shape[0] != batch:
            raise op.error(f"{name} dim 0 ({shape[0]}) must equal input batch size B ({batch})")
        if shape[1] != k:
            raise op.error(f"{name} dim 1 ({shape[1]}) must equal k ({k})")
    return None


def _ranks(op: TTOp, *wanted: tuple[object, str]) -> None:
    for value, message in wanted:
        if len(_shape(value)) != 4:
            raise op.error(message)


def _tokens(shape: tuple[int, ...]) -> int:
    """Rows of a token tensor: everything but its last (hidden or expert) dimension."""
    return math.prod(shape[:-1])


def _line(op: TTOp) -> None:
    if scalar(op.prop("num_devices")) <= 0:
        raise op.error("num_devices must be positive")
    if scalar(op.prop("cluster_axis")) not in (0, 1):
        raise op.error("cluster_axis must be 0 or 1")


def all_to_all_dispatch(op: TTOp):
    tokens, indices, mapping = op.operands
    _ranks(op, (tokens, "input_tensor must be a 4D tensor [B, S, 1, H]"),
           (indices, "expert_indices must be a 4D tensor [B, S, 1, K]"),
           (mapping, "expert_mapping must be a 4D tensor [1, 1, E, D]"),
           (op.results[0], "dispatched output must be a 4D tensor [1, B*D, S, H]"),
           (op.results[1], "metadata output must be a 4D tensor [1, B*D, S, K]"))
    _line(op)
    x, k, dispatched, metadata = (_shape(v) for v in (tokens, indices, *op.results))
    if _tokens(k) != _tokens(x):
        raise op.error(f"expert_indices has {_tokens(k)} tokens, input_tensor {_tokens(x)}")
    want = dispatched_shape(x, scalar(op.prop("num_devices")))
    for what, shape, last in (("dispatched", dispatched, x[-1]), ("metadata", metadata, k[-1])):
        if shape != (*want, last):
            raise op.error(f"{what} output must be [{', '.join(map(str, (*want, last)))}] (the line's "
                           f"{scalar(op.prop('num_devices'))} devices' tokens, batch first)")
    return None


def all_to_all_dispatch_metadata(op: TTOp, ttnn: bool = False):
    tokens, indices, scores, mapping = op.operands[:4]
    _ranks(op, (tokens, "input_tensor must be a 4D tensor [1, 1, M, H]"),
           (indices, "expert_indices must be a 4D tensor [1, 1, M, K]"),
           (scores, "expert_scores must be a 4D tensor [1, 1, M, K]"))
    if len(_shape(mapping)) != (2 if ttnn else 4):
        raise op.error("expert_mapping must be a 2D tensor [D, E]" if ttnn else
                       "expert_mapping must be a 4D tensor [1, 1, D, E]")
    for result, what in zip(op.results, ("dispatched output must be a 3D tensor [1, tokens_global, H]",
                                         "indices output must be a 3D tensor [1, tokens_global, K]",
                                         "scores output must be a 3D tensor [1, tokens_global, K]")):
        if len(_shape(result)) != 3:
            raise op.error(what)
    _line(op)
    if ttnn:
        bound = sum(bool(op.operand_groups().get(name)) for name in ("dispatched_buffer", "indices_buffer",
                                                                     "scores_buffer"))
        if bound not in (0, 3):
            raise op.error("dispatched_buffer, indices_buffer and scores_buffer must be all bound or all unbound")
    x, k, s = (_shape(v) for v in (tokens, indices, scores))
    if k != s or _tokens(k) != _tokens(x):
        raise op.error(f"expert_indices and expert_scores must both be [1, 1, {_tokens(x)}, K] for the tokens of "
                       "input_tensor")
    line = _tokens(x) * scalar(op.prop("num_devices"))
    want = ((1, line, x[-1]), (1, line, k[-1]), (1, line, k[-1]))
    if tuple(_shape(r) for r in op.results) != want:
        raise op.error(f"results must be [1, {line}, {x[-1]}], [1, {line}, {k[-1]}] and [1, {line}, {k[-1]}] (the "
                       "line's tokens)")
    return None


def dispatched_shape(tokens: tuple[int, ...], devices: int) -> tuple[int, int, int]:
    """[1, B*D, S] of the line's tokens, from one device's [B, ..., H] (its rows past the batch are S)."""
    return 1, tokens[0] * devices, _tokens(tokens) // tokens[0]


def all_to_all_combine(op: TTOp):
    expert_out, metadata, mapping = op.operands
    _ranks(op, (expert_out, "input_tensor must be a 4D tensor [E_local, B*D, S, H]"),
           (metadata, "expert_metadata must be a 4D tensor [1, B*D, S, K]"),
           (mapping, "expert_mapping must be a 4D tensor [1, 1, E, D]"),
           (op.results[0], "result must be a 4D tensor [K, B, S, H]"))
    _line(op)
    if scalar(op.prop("num_experts_per_tok")) <= 0:
        raise op.error("num_experts_per_tok must be positive")
    combined_shape(op)
    return None


def combined_shape(op: TTOp) -> tuple[int, int]:
    """The chip's share of the line's (B, S) tokens the combined result holds, checked against its operands."""
    source, metadata, result = _shape(op.operands[0]), _shape(op.operands[1]), _shape(op.results[0])
    line, k, shard_dim = (scalar(op.prop(n)) for n in ("num_devices", "num_experts_per_tok", "output_shard_dim"))
    if shard_dim not in (1, 2):
        raise op.error(f"output_shard_dim must be 1 or 2, got {shard_dim}")
    tokens = list(source[1:3])
    if tokens[shard_dim - 1] % line:
        raise op.error(f"dimension {shard_dim} of input_tensor ({tokens[shard_dim - 1]}) does not split over "
                       f"{line} devices")
    tokens[shard_dim - 1] //= line
    if metadata[1:3] != source[1:3] or metadata[3] != k:
        raise op.error(f"expert_metadata must be [1, {source[1]}, {source[2]}, {k}] for the input's tokens")
    want = (k, *tokens, source[3])
    if result != want:
        raise op.error(f"result must be [{', '.join(map(str, want))}] (K, and the tokens of one of {line} "
                       f"devices split along dimension {shard_dim})")
    return tuple(tokens)


def moe_expert_token_remap(op: TTOp, ttnn: bool = False):
    scores, mapping, metadata = op.operands
    local, reduced = op.results
    _ranks(op, (scores, "topk_tensor must be a 4D tensor [D, B, S, E]"),
           (mapping, "expert_mapping must be a 4D tensor [1, 1, E, D]"),
           (metadata, "expert_metadata must be a 4D tensor [D, B, S, K]"),
           (local, "mapping output must be a 4D tensor" + ("" if ttnn else " [1, B, S, E_local]")),
           (reduced, "reduced output must be a 4D tensor" + ("" if ttnn else " [1, 1, ceil(B*S/R), E_local]")))
    size = scalar(op.prop("reduction_size"))
    if size <= 0:
        raise op.error("reduction_size must be positive")
    tokens, experts = _tokens(_shape(scores)), _shape(scores)[-1]
    rows, cols = _shape(mapping)[2:]
    # the documented [1, 1, E, D], or [1, 1, D, E] as upstream's tests and newer tt-metal lay the mapping out
    if experts not in (rows, cols) or _tokens(_shape(metadata)) != tokens:
        raise op.error(f"expert_mapping must list the {experts} experts and expert_metadata the {tokens} tokens of "
                       "topk_tensor")
    local_experts = experts // (cols if rows == experts else rows)
    if _shape(local) != (*_shape(scores)[:-1], local_experts) or \
            _shape(reduced) != (1, 1, -(-tokens // size), local_experts):
        raise op.error(f"outputs must be the tokens of topk_tensor by the {local_experts} experts of a device, and "
                       f"[1, 1, {-(-tokens // size)}, {local_experts}] blocks of {size} tokens")
    return None


def sampling(op: TTOp, ttnn: bool = False):
    values, indices, k, p, temp = (_shape(v) for v in op.operands)
    result = _shape(op.results[0])
    rank = len(values)
    if rank != 2 and not (ttnn and rank == 4):
        raise op.error("input_values must be 2D [batch, candidates] or 4D [1, 1, batch, candidates]" if ttnn else
                       "input_values must be 2D [batch, candidates]")
    if len(indices) != rank:
        raise op.error("input_indices rank must match input_values rank" if ttnn else
                       "input_indices must be 2D [batch, candidates]")
    if values != indices:
        raise op.error("input_values and input_indices must have the same shape")
    if rank == 4 and values[:2] != (1, 1):
        raise op.error("rank-4 input_values leading dims must be [1, 1, batch, candidates]")
    batch, result_rank = values[-2], 1 if rank == 2 else 4
    if ttnn and not 1 <= batch <= 32:  # one core per user
        raise op.error(f"batch ({batch}) must be in [1, 32] (kernel limit)")
    if ttnn and len(result) != result_rank:
        raise op.error(f"result rank ({len(result)}) must match expected rank ({result_rank}) for input_values "
                       f"rank {rank}")
    for shape, name in ((k, "k"), (p, "p"), (temp, "temp")):
        if len(shape) != 1:
            raise op.error(f"{name} must be 1D [batch]")
        if shape[0] != batch:
            raise op.error(f"{name} batch dimension ({shape[0]}) must match input_values batch ({batch})")
    if len(result) != result_rank or any(d != 1 for d in result[:-1]) or result[-1] != batch:
        raise op.error(f"result must be {result_rank}D [{'batch' if result_rank == 1 else '1, 1, 1, batch'}]")
    return None


TTIR_RULES = {"sampling": sampling, "sparse_matmul": sparse_matmul, "topk_router_gpt": topk_router_gpt,
              "all_to_all_dispatch": all_to_all_dispatch, "all_to_all_combine": all_to_all_combine,
              "moe_expert_token_remap": moe_expert_token_remap,
              "all_to_all_dispatch_metadata": all_to_all_dispatch_metadata}
TTNN_RULES = {"sampling": lambda op: sampling(op, ttnn=True), "topk_router_gpt": lambda op: topk_router_gpt(op, ttnn=True),
              "moe_expert_token_remap": lambda op: moe_expert_token_remap(op, ttnn=True),
              "all_to_all_dispatch_metadata": lambda op: all_to_all_dispatch_metadata(op, ttnn=True)}
