"""`--ttir-flatten-sliding-window`: conv2d, conv_transpose2d and the 2D pools read their input as TTNN does.

TTNN's sliding-window ops take an NHWC input flattened to (1, 1, N*H*W, C) and give (1, 1, N*OH*OW, C'). Each op
without `flattened_compat_info` gets a reshape in, the flattened op marked with the (N, H, W) it came from, and a
reshape out, as upstream's pass does; an op whose dimensions are elsewhere (a channel-first conv2d) is first
permuted to NHWC. The TTIR→TTNN conversion lowers only flattened sliding-window ops.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.ir.props import KINDS
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.dialects.ttir_shapes_nn import conv_dims
from ttmlir.dialects.ttir_attrs import FlattenedCompatInfoAttr
from ttmlir.transforms.ttnn.ttnn_utils import helper_location

SLIDING_WINDOW = frozenset({"conv2d", "conv_transpose2d", "max_pool2d", "max_pool2d_with_indices", "avg_pool2d"})
DIM_PROPS = ("batch_dim", "height_dim", "width_dim", "channel_dim")
NHWC = [0, 1, 2, 3]


def ttir_op(name: str, operands, props: dict, results: list[TensorType], source: Operation) -> Operation:
    """A new op before `source`, located as its helper (the location itself stays with what stands for its result);
    a diagnostic on it points at where `source` was written."""
    new = TTIR_OP_CLASSES[name].create(operands=list(operands), result_types=results, properties=props)
    new.location = helper_location(source.location, name)
    new.derived_from = getattr(source, "derived_from", source)
    source.parent.insert_op_before(new, source)
    return new


def reshaped(value: SSAValue, shape, source: Operation) -> SSAValue:
    props = {"shape": KINDS["i32_array"].build(list(shape))}
    return ttir_op("reshape", [value], props, [TensorType(value.type.element_type, shape)], source).results[0]


def permuted(value: SSAValue, perm: list[int], source: Operation) -> SSAValue:
    shape = value.type.get_shape()
    props = {"permutation": KINDS["i64_darray"].build(perm)}
    result = TensorType(value.type.element_type, [shape[p] for p in perm])
    return ttir_op("permute", [value], props, [result], source).results[0]


def flatten(op: TTOp) -> None:
    """Replace one NHWC (or dimension-attributed) sliding-window op by its flattened form between reshapes.
    Destination operands (`output`) are dropped: the flattened op makes its own results."""
    dims = conv_dims(op) if any(p[0] == "channel_dim" for p in op.ROW.props) else NHWC
    groups = op.operand_groups()
    source, *others = [v for name in op.ROW.operands if name != "output*" for v in groups[name.rstrip("?*")]]
    if dims != NHWC:
        source = permuted(source, dims, op)
        if groups.get("bias"):  # the bias's channels sit where the result's do
            others[-1] = permuted(others[-1], dims, op)
    n, h, w, c = source.type.get_shape()
    flat_in = reshaped(source, [1, 1, n * h * w, c], op)
    props = {k: v for k, v in op.properties.items() if k not in DIM_PROPS}
    props["flattened_compat_info"] = FlattenedCompatInfoAttr((n, h, w))
    shapes = [[r.type.get_shape()[d] for d in dims] for r in op.results]
    flat = ttir_op(op.ROW.name, [flat_in, *others], props, [TensorType(r.type.element_type, [1, 1, s[0] * s[1] * s[2], s[3]])
                                                            for r, s in zip(op.results, shapes)], op)
    if "operandSegmentSizes" in op.properties:
        flat.properties["operandSegmentSizes"] = op.properties["operandSegmentSizes"]
    values = []
    for flat_result, shape in zip(flat.results, shapes):
        value = reshaped(flat_result, shape, op)
        values.append(permuted(value, [dims.index(i) for i in range(4)], op) if dims != NHWC else value)
    values[0].owner.location = op.location  # what stands for the op's (first) result keeps its location
    Rewriter.replace_op(op, [], values)


@dataclass(frozen=True)
class TTIRFlattenSlidingWindowPass(ModulePass):
    """Flatten the inputs of conv2d, conv_transpose2d and the 2D pools to (1, 1, N*H*W, C)."""

    name: ClassVar[str] = "ttir-flatten-sliding-window"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if isinstance(op, TTOp) and op.name.startswith("ttir.") and op.ROW.name in SLIDING_WINDOW \
                    and op.prop("flattened_compat_info") is None:
                flatten(op)
