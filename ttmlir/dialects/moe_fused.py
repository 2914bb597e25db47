"""The fused MoE ops (TTIR and TTNN), their TTNN-only companions, and their verifiers in upstream's words.

moe_compute is a MoE layer's expert stage after all_to_all_dispatch_metadata: each chip holds the line's tokens
(those routed to it filled in), their chosen experts and scores, and the weights of its own experts. For every
token of every chip and each of its k choices, the chip owning that expert runs the expert FFN (gate/up matmuls,
SiLU or SwiGLU, down matmul, optional biases) on it, and the combine sends the row back to the token's chip:
a chip's result is [k, its tokens, hidden]. TTIR takes the raw weights w0/w1 [L, E, hidden, intermediate] and
w2 [L, E, intermediate, hidden]; TTNN takes them prepacked by prepare_moe_compute_w0_w1_weights /
prepare_moe_compute_w2_weights, plus a combine output buffer and a global semaphore the function's prelude
allocates (--ttnn-allocate-distributed-op-buffers / -semaphores).

moe_gpt is GPT-OSS's fused expert kernel on weights prepacked for its cores; selective_reduce_combine the
combine half of the same pipeline (dense per-expert token blocks back to the tokens' chips).
"""

from __future__ import annotations

from ttmlir.dialects.ttnn_attrs import CoreRangeAttr, CoreRangeSetAttr
from ttmlir.ir.op_table import op
from ttmlir.ir.props import scalar
from ttmlir.ir.tt_op import TTOp

TILE = 32
# the fabric-mux cores of moe_compute's A2A combine when nothing says otherwise (upstream's default 3x3 block)
DEFAULT_MUX_CORES = CoreRangeSetAttr((CoreRangeAttr(((1, 1), (3, 3))),))


def packed_w0_w1_shape(w0: tuple[int, ...], has_bias: bool) -> tuple[int, ...]:
    """The simulated device's packed gate|up weights: w0|w1 side by side, [L, E, hidden (+ a tile row holding
    bias_0|bias_1), 2 * intermediate] (upstream's is tt-metal's bank-sharded layout, from an op-model query)."""
    layers, experts, hidden, intermediate = w0
    return layers, experts, hidden + (TILE if has_bias else 0), 2 * intermediate


def packed_w2_shape(w2: tuple[int, ...], has_bias: bool) -> tuple[int, ...]:
    """The packed down weights: w2 [L, E, intermediate (+ a tile row holding bias_2), hidden]."""
    layers, experts, intermediate, hidden = w2
    return layers, experts, intermediate + (TILE if has_bias else 0), hidden


def _shape(value) -> tuple[int, ...]:
    return tuple(value.type.get_shape())


def _present(op: TTOp, name: str) -> bool:
    return bool(op.operand_groups().get(name))


def selective_reduce_combine(op: TTOp):
    for name in ("select_experts_k", "experts", "hidden_size"):
        if scalar(op.prop(name)) == 0:
            raise op.error(f"{name} must be positive")
    return None


def moe_gpt(op: TTOp):
    groups = op.operand_groups()
    w0w1, w2 = _shape(groups["w0_w1_tensor"][0]), _shape(groups["w2_tensor"][0])
    for shape, name in ((w0w1, "w0_w1_tensor"), (w2, "w2_tensor")):
        if len(shape) != 6:
            raise op.error(f"{name} must be a rank 6 tensor")
    for shape, name in ((w0w1, "w0_w1_tensor"), (w2, "w2_tensor")):
        if shape[5] != 4 * TILE:
            raise op.error(f"{name} dim[5] must be 128 (4*TILE_SIZE)")
    if w0w1[0] != w2[0]:
        raise op.error("w0_w1_tensor and w2_tensor must have same dim[0] (num_cores)")
    if w0w1[2] != w2[2]:
        raise op.error("w0_w1_tensor and w2_tensor must have same dim[2] (experts_per_device)")
    for name in ("expert_indices", "expert_scores"):
        if len(_shape(groups[name][0])) < 2:
            raise op.error(f"{name} must have rank >= 2")
    return None


def _tile_multiple(op: TTOp, name: str) -> None:
    value = scalar(op.prop(name))
    if value == 0 or value % TILE:
        raise op.error(f"{name} must be a positive multiple of 32")


def _hidden(op: TTOp) -> int:
    """The activations' hidden size (their last dimension), checked as upstream checks it."""
    if scalar(op.prop("output_height_shard_dim")) == 0:
        raise op.error("output_height_shard_dim must be positive")
    shape = _shape(op.operand_groups()["tilize_input_tensor"][0])
    if len(shape) < 2:
        raise op.error("tilize_input_tensor must have rank >= 2")
    if shape[-1] <= 0 or shape[-1] % TILE:
        raise op.error("tilize_input_tensor last dim (hidden_size) must be a positive multiple of 32")
    return shape[-1]


def _w0(op: TTOp) -> tuple[int, ...]:
    shape = _shape(op.operand_groups()["w0"][0])
    if len(shape) != 4:
        raise op.error("w0 must have rank 4 (L, E, hidden, intermediate)")
    return shape


def moe_compute(op: TTOp):
    _tile_multiple(op, "intermediate_size")
    biases = [_present(op, f"bias_{i}") for i in range(3)]
    if any(biases) and not all(biases):
        raise op.error("bias_0, bias_1, and bias_2 must be all present or all absent")
    if all(biases):  # the packers take biases as PyTorch has them, (L, E, *)
        layers, experts, hidden, intermediate = _w0(op)
        for i, last in enumerate((intermediate, intermediate, hidden)):
            want = (layers, experts, last)
            if _shape(op.operand_groups()[f"bias_{i}"][0]) != want:
                raise op.error(f"bias_{i} must have shape ({', '.join(map(str, want))})")
    hidden = _hidden(op)
    w0 = _w0(op)
    if w0[2] != hidden:
        raise op.error(f"w0 hidden dim ({w0[2]}) must match tilize_input_tensor hidden_size ({hidden})")
    return None


def ttnn_moe_compute(op: TTOp):
    _tile_multiple(op, "intermediate_size")
    _hidden(op)
    return None


def prepare_w0_w1(op: TTOp):
    _tile_multiple(op, "hidden_size")
    _tile_multiple(op, "intermediate_size")
    if _present(op, "bias_0") != _present(op, "bias_1"):
        raise op.error("bias_0 and bias_1 must be both present or both absent")
    return None


def prepare_w2(op: TTOp):
    _tile_multiple(op, "hidden_size")
    _tile_multiple(op, "intermediate_size")
    return None


PREPARE = "hidden_size:ui32 intermediate_size:ui32"
TTNN_ROWS = (
    op("moe_compute", "moe_compute", "tilize_input_tensor tilize_expert_indices_tensor tilize_expert_scores_tensor "
       "tilize_expert_mapping_tensor matmul_w0_w1_tensor matmul_w2_tensor optional_output_tensor? "
       "cross_device_semaphore? device",
       props="layer_id:ui32 output_height_shard_dim:ui32 intermediate_size:ui32 has_bias:bool "
       "activation_function:moe_activation=silu cluster_axis:ui32 num_links:ui32? topology:topology? "
       "mux_core_range_set:core_range_set", results="combine_output",
       summary="Fused MoE expert compute (selective tilize + experts + combine)."),
    op("prepare_moe_compute_w0_w1_weights", "prepare_moe_compute", "w0 w1 bias_0? bias_1? device", props=PREPARE,
       summary="Prepack gate (W0) and up (W1) expert weights for moe_compute."),
    op("prepare_moe_compute_w2_weights", "prepare_moe_compute", "w2 bias_2? device", props=PREPARE,
       summary="Prepack down (W2) expert weight for moe_compute."),
    op("allocate_moe_compute_semaphore", "semaphore", "device",
       props="output_height_shard_dim:ui32 hidden_size:ui32 initial_value:ui32? mux_core_range_set:core_range_set",
       summary="Allocate the moe_compute A2A combine semaphore."),
)

TTIR_RULES = {"selective_reduce_combine": selective_reduce_combine, "moe_gpt": moe_gpt, "moe_compute": moe_compute}
TTNN_RULES = {"selective_reduce_combine": selective_reduce_combine, "moe_gpt": moe_gpt,
              "moe_compute": ttnn_moe_compute, "prepare_moe_compute_w0_w1_weights": prepare_w0_w1,
              "prepare_moe_compute_w2_weights": prepare_w2}
