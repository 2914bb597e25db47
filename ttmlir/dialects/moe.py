"""Verifiers of the mixture-of-experts ops (TTIR and TTNN), in upstream's words.

sparse_matmul multiplies by expert blocks of b = [1, E, K, N], a block only where the sparsity mask is
non-zero; topk_router_gpt is GPT-OSS's router: x @ W + b, its top k experts and their softmax weights.
"""

from __future__ import annotations

from ttmlir.dialects.props import scalar
from ttmlir.dialects.tt_op import TTOp


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


TTIR_RULES = {"sparse_matmul": sparse_matmul, "topk_router_gpt": topk_router_gpt}
TTNN_RULES = {"topk_router_gpt": lambda op: topk_router_gpt(op, ttnn=True)}
