"""`--ttnn-prepare-conv2d-weights-and-bias`: each conv2d's host weight (and bias) goes through
`ttnn.prepare_conv2d_weights` (`ttnn.prepare_conv2d_bias`) into the device layout the conv consumes, and the conv's
`conv2d_config` says the weights are prepared (`weights_dtype`, the input's). A weight that is a parameter or a
constant is then const-eval work: prepared once, not on every call (the optimizer runs this from level 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, NoneAttr, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import ttnn
from ttmlir.ir.props import KINDS
from ttmlir.ir.syntax import enum
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.transforms.ttnn.ttnn_utils import helper_location, on_host, ttnn_op, with_conv2d_config

def _device_tiles(value: SSAValue, shape: list[int], dtype: str) -> TensorType:
    element = ttnn.DATA_TYPE_TO_MLIR.get(dtype, value.type.element_type)
    return TensorType(element, shape, ttnn.layout_for(tuple(shape), element, "dram", True, dtype))


def _prepare(conv: TTNNOp) -> None:
    groups = conv.operand_groups()
    source, weight, device = groups["input"][0], groups["weight"][0], groups["device"][0]
    bias = groups["bias"][0] if groups.get("bias") else None
    layout: ttnn.TTNNLayoutAttr = source.type.encoding
    dtype = layout.data_type
    config = with_conv2d_config(conv, weights_dtype=dtype)
    props: dict[str, Attribute] = {
        **conv.properties, "conv2d_config": config,
        "input_memory_config": ttnn.MemoryConfigAttr(ttnn.MemoryConfig(
            enum(ttnn.BufferTypeAttr, layout.buffer_type),
            None if isinstance(layout.memory_layout, NoneAttr) else layout.memory_layout)),
        "input_tensor_layout": KINDS["layout"].build("tile" if layout.is_tiled else "row_major"),
        "weights_format": KINDS["str"].build("OIHW"), "has_bias": KINDS["bool"].build(bias is not None),
        "input_dtype": KINDS["dtype"].build(dtype),
        "output_dtype": KINDS["dtype"].build(conv.results[0].type.encoding.data_type)}
    kh, kw = (int(v) for v in conv.prop("kernel_size").get_values())
    in_channels, out_channels = conv.prop("in_channels").value.data, conv.prop("out_channels").value.data
    prepared = ttnn_op("prepare_conv2d_weights", [weight, device], props,
                       [_device_tiles(weight, [1, 1, kh * kw * in_channels, out_channels], dtype)], conv)
    prepared.location = helper_location(conv.location, "prepare_conv2d_weight")
    block = conv.parent_block()
    block.insert_op_before(prepared, conv)
    conv.operands[list(conv.operands).index(weight)] = prepared.results[0]
    if bias is not None:
        prepared_bias = ttnn_op("prepare_conv2d_bias", [bias, device], props,
                                [_device_tiles(bias, [1, 1, 1, out_channels], dtype)], conv)
        prepared_bias.location = helper_location(conv.location, "prepare_conv2d_bias")
        block.insert_op_before(prepared_bias, conv)
        conv.operands[list(conv.operands).index(bias)] = prepared_bias.results[0]
    conv.properties["conv2d_config"] = config


@dataclass(frozen=True)
class TTNNPrepareConv2dWeightsAndBiasPass(ModulePass):
    """Prepare every conv2d's host weight and bias with prepare_conv2d_weights / prepare_conv2d_bias."""

    name: ClassVar[str] = "ttnn-prepare-conv2d-weights-and-bias"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if isinstance(op, TTNNOp) and op.ROW.name == "conv2d" and on_host(op.operand_groups()["weight"][0].type):
                _prepare(op)
