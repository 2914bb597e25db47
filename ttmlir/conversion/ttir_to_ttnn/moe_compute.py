"""ttir.moe_compute -> ttnn.prepare_moe_compute_w0_w1_weights + ttnn.prepare_moe_compute_w2_weights +
ttnn.moe_compute, as upstream's conversion builds them.

The raw weights are prepacked on the device (the packers run once; a const-eval pass may hoist them). The
simulated device's packed layout: w0|w1 side by side, [L, E, hidden (+ one tile row holding bias_0|bias_1), 2 *
intermediate], and w2 as it is, [L, E, intermediate (+ one tile row holding bias_2), hidden]; the bias rows are
what the fused kernel adds (upstream leaves a placeholder type that an op-model query refines to tt-metal's
bank-sharded layout). The combine output buffer and the semaphore stay unbound: the prelude allocation passes
bind them.
"""

from __future__ import annotations

from xdsl.ir import Operation

from ttmlir.dialects import ttnn
from ttmlir.dialects.moe_fused import TILE
from ttmlir.ir.props import KINDS
from ttmlir.ir.tt_op import TTOp
from ttmlir.transforms.ttnn.ttnn_utils import device_of

# the fabric-mux cores of the A2A combine when nothing says otherwise (upstream's default 3x3 block)
DEFAULT_MUX_CORES = ttnn.CoreRangeSetAttr((ttnn.CoreRangeAttr(((1, 1), (3, 3))),))


def packed_w0_w1_shape(w0: tuple[int, ...], has_bias: bool) -> tuple[int, ...]:
    layers, experts, hidden, intermediate = w0
    return layers, experts, hidden + (TILE if has_bias else 0), 2 * intermediate


def packed_w2_shape(w2: tuple[int, ...], has_bias: bool) -> tuple[int, ...]:
    layers, experts, intermediate, hidden = w2
    return layers, experts, intermediate + (TILE if has_bias else 0), hidden


def convert_moe_compute(op: TTOp) -> list[Operation]:
    from ttmlir.conversion.ttir_to_ttnn.convert_ttir_to_ttnn import _by_name, _tensor  # it imports this module

    groups = op.operand_groups()
    device = device_of(op.parent)
    has_bias = bool(groups["bias_0"])
    w0, w2 = groups["w0"][0], groups["w2"][0]
    sizes = {"hidden_size": KINDS["ui32"].build(w0.type.get_shape()[2]),
             "intermediate_size": op.prop("intermediate_size")}
    w0_w1 = _by_name("prepare_moe_compute_w0_w1_weights",
                     {"w0": [w0], "w1": groups["w1"], "bias_0": groups["bias_0"], "bias_1": groups["bias_1"],
                      "device": [device]}, sizes,
                     [_tensor(packed_w0_w1_shape(w0.type.get_shape(), has_bias), w0.type)], op)
    w2_packed = _by_name("prepare_moe_compute_w2_weights", {"w2": [w2], "bias_2": groups["bias_2"], "device": [device]},
                         sizes, [_tensor(packed_w2_shape(w2.type.get_shape(), has_bias), w2.type)], op)
    props = {name: op.prop(name) for name in ("layer_id", "output_height_shard_dim", "intermediate_size",
                                              "activation_function", "cluster_axis")}
    props.update(has_bias=KINDS["bool"].build(has_bias), mux_core_range_set=DEFAULT_MUX_CORES)
    compute = _by_name("moe_compute", {**{n: groups[n] for n in ("tilize_input_tensor", "tilize_expert_indices_tensor",
                                                                "tilize_expert_scores_tensor",
                                                                "tilize_expert_mapping_tensor")},
                                       "matmul_w0_w1_tensor": [w0_w1.results[0]],
                                       "matmul_w2_tensor": [w2_packed.results[0]], "device": [device]},
                       props, [op.results[0].type], op)
    return [w0_w1, w2_packed, compute]

