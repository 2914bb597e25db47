"""`--ttnn-prepare-conv3d-weights`: a conv3d's raw (O, C/G, kD, kH, kW) weight becomes the 2D weight tt-metal's
kernel reads, through `ttnn.prepare_conv3d_weights` with the c_in_block of the op's config, as upstream's pass
does: the raw weight row-major on the host, the prepared one tiled in DRAM.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from ttmlir.dialects import ttnn
from ttmlir.dialects.conv import TILE_WIDTH, prepared_conv3d_rows
from ttmlir.ir.props import KINDS, scalar
from ttmlir.transforms.ttnn.ttnn_utils import helper_location, ttnn_op
from ttmlir.transforms.ttnn.ttnn_workaround import Want, apply_workaround


def prepare(conv: Operation) -> None:
    groups = conv.operand_groups()
    weight, device = groups["weight"][0], groups["device"][0]
    if len(weight.type.get_shape()) != 2:  # raw: prepared from row-major host data into DRAM
        config = dict(conv.prop("conv3d_config").data)
        shape = (prepared_conv3d_rows(tuple(weight.type.get_shape()), scalar(conv.prop("groups"))),
                 weight.type.get_shape()[0])
        prepared = TensorType(weight.type.element_type, shape,
                              ttnn.layout_for(shape, weight.type.element_type, "dram", tiled=False))
        i32 = KINDS["i32"].build
        op = ttnn_op("prepare_conv3d_weights", [weight, device], {"groups": conv.prop("groups"),
                                                                 "c_in_block": i32(config["c_in_block"]),
                                                                 "alignment": i32(TILE_WIDTH)}, [prepared], conv)
        op.location = helper_location(conv.location, "prepare_conv3d_weight")
        conv.parent.insert_op_before(op, conv)
        conv.operands[1] = op.results[0]
        apply_workaround(op, {"weight_tensor": Want("row_major", buffer="system_memory")})
    apply_workaround(conv, {"weight": Want("tile", buffer="dram")})  # the kernel reads the weight tiled


@dataclass(frozen=True)
class TTNNPrepareConv3dWeightsPass(ModulePass):
    """Insert `ttnn.prepare_conv3d_weights` before every conv3d whose weight is still raw."""

    name: ClassVar[str] = "ttnn-prepare-conv3d-weights"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if op.name == "ttnn.conv3d":
                prepare(op)
