"""`--ttir-to-ttir-decomposition`: TTIR ops TTNN has no counterpart for, rewritten into TTIR ops it has.

Here: quantize, dequantize and requantize, whose scales and zero points live in their `!quant.uniform` types,
become the `_unrolled` ops that take them as constant operands (a (1,) tensor per tensor, one value per index of
the quantized axis otherwise), as TTNN's quantization kernels take them; reduce_or and reduce_and become a sum or
a product compared with zero; ttml's training ops (adamw, sdpa_fw, sdpa_bw) take rank-4 operands. The other
decompositions upstream's pass
makes, this build's TTIR→TTNN conversion makes directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, Float32Type, IntegerType, ModuleOp, Signedness, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects.conv import CONV1D_DIMS, CONV3D_DIMS, conv1d_params, conv3d_dims
from ttmlir.dialects.props import FLOAT_TYPES, KINDS, scalar
from ttmlir.dialects.quant import UniformQuantizedType
from ttmlir.dialects.tt_op import TTOp
from ttmlir.dialects.ttml import as_4d
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.passes.flatten_sliding_window import permuted, reshaped, ttir_op

SI32 = IntegerType(32, Signedness.SIGNED)


def _constant(values: list, element, before: Operation) -> SSAValue:
    result = TensorType(element, [len(values)])
    op = TTIR_OP_CLASSES["constant"].create(
        result_types=[result], properties={"value": DenseIntOrFPElementsAttr.from_list(result, values)})
    op.location = before.location
    before.parent.insert_op_before(op, before)
    return op.results[0]


def scale_and_zero_point(element: UniformQuantizedType, before: Operation) -> list[SSAValue]:
    q = element.data
    return [_constant(list(q.scales), Float32Type(), before), _constant(list(q.zero_points), SI32, before)]


def unroll(op: TTOp) -> None:
    """Replace a quantize-family op by its unrolled form, the parameters of its quantized types as constants."""
    quantized = [v.type.element_type for v in (op.operands[0], op.results[0])
                 if isinstance(v.type.element_type, UniformQuantizedType)]
    operands = [op.operands[0]] + [c for element in quantized for c in scale_and_zero_point(element, op)]
    axis = next((element.data.axis for element in quantized if element.per_axis), None)
    props = {} if axis is None else {"axis": KINDS["i32"].build(axis)}
    new = TTIR_OP_CLASSES[op.ROW.name + "_unrolled"].create(
        operands=operands, result_types=[op.results[0].type], properties=props)
    new.location = op.location
    Rewriter.replace_op(op, new)


def logical_reduction(op: TTOp) -> None:
    """TTNN has no logical reductions: any is a sum, all a product (upstream's decomposition), compared with zero
    so the result is 0 or 1 whatever the inputs were."""
    result = op.results[0].type
    reduced = TTIR_OP_CLASSES[LOGICAL_REDUCTIONS[op.ROW.name]].create(
        operands=[op.operands[0]], result_types=[result], properties=dict(op.properties))
    zero = 0.0 if isinstance(result.element_type, FLOAT_TYPES) else 0
    zeros = TTIR_OP_CLASSES["full"].create(result_types=[result], properties={
        "shape": KINDS["i32_darray"].build(list(result.get_shape())), "fill_value": KINDS["number"].build(zero)})
    nonzero = TTIR_OP_CLASSES["ne"].create(operands=[reduced.results[0], zeros.results[0]], result_types=[result])
    for new in (reduced, zeros, nonzero):
        new.location = op.location
    Rewriter.replace_op(op, [reduced, zeros, nonzero])


def conv3d_to_ndhwc(op: TTOp) -> None:
    """TTNN's conv3d reads NDHWC: a conv3d with its dimensions elsewhere is permuted there and back (its bias's
    channels sit where the result's do)."""
    dims = conv3d_dims(op)
    if dims == NDHWC:
        return
    groups = op.operand_groups()
    inputs = [permuted(groups["input"][0], dims, op), groups["weight"][0]]
    if groups.get("bias"):
        inputs.append(permuted(groups["bias"][0], dims, op))
    shape = op.results[0].type.get_shape()
    result = TensorType(op.results[0].type.element_type, [shape[d] for d in dims])
    props = {k: v for k, v in op.properties.items() if k not in CONV3D_DIMS}
    conv = ttir_op("conv3d", inputs, props, [result], op)
    back = permuted(conv.results[0], [dims.index(i) for i in range(5)], op)
    back.owner.location = op.location
    Rewriter.replace_op(op, [], [back])


def conv1d_as_conv2d(op: TTOp) -> None:
    """TTNN's conv1d is its conv2d over a height of one: NLC input as (N, 1, L, C), weight (O, C/G, 1, K), bias
    (1, 1, 1, O), the result reshaped back (inputs in another layout are permuted to NLC and the result back)."""
    dims = [scalar(op.prop(name)) for name in CONV1D_DIMS]
    groups = op.operand_groups()
    source, weight = groups["input"][0], groups["weight"][0]
    if dims != [0, 1, 2]:
        source = permuted(source, dims, op)
    n, length, channels = source.type.get_shape()
    o, per_group, k = weight.type.get_shape()
    element = op.results[0].type.element_type
    inputs = [reshaped(source, [n, 1, length, channels], op), reshaped(weight, [o, per_group, 1, k], op)]
    if groups.get("bias"):
        inputs.append(reshaped(groups["bias"][0], [1, 1, 1, o], op))
    out = op.results[0].type.get_shape()
    out_length = out[dims[1]]
    stride, (left, right), dilation = conv1d_params(op)
    pair = KINDS["i32_darray"].build
    props = {"stride": pair([1, stride]), "padding": pair([0, left, 0, right]), "dilation": pair([1, dilation]),
             "groups": op.prop("groups")}
    conv = ttir_op("conv2d", inputs, props, [TensorType(element, [n, 1, out_length, o])], op)
    result = reshaped(conv.results[0], [n, out_length, o], op)
    if dims != [0, 1, 2]:
        result = permuted(result, [dims.index(i) for i in range(3)], op)
    result.owner.location = op.location
    Rewriter.replace_op(op, [], [result])


def ttml_in_4d(op: TTOp) -> None:
    """ttml's kernels (adamw, sdpa_fw, sdpa_bw) take rank-4 tensors only: other operands are reshaped to (1, product
    of the leading dims, S, D) and each result back to its own shape."""
    if all(len(v.type.get_shape()) == 4 for v in (*op.operands, *op.results)):
        return
    operands = [v if len(v.type.get_shape()) == 4 else reshaped(v, as_4d(v.type.get_shape()), op) for v in op.operands]
    results = [TensorType(r.type.element_type, as_4d(r.type.get_shape())) for r in op.results]
    new = ttir_op(op.ROW.name, operands, dict(op.properties), results, op)
    new.location = op.location
    back = [n if n.type == r.type else reshaped(n, r.type.get_shape(), op) for n, r in zip(new.results, op.results)]
    Rewriter.replace_op(op, [], back)


NDHWC = [0, 1, 2, 3, 4]
LOGICAL_REDUCTIONS = {"reduce_or": "sum", "reduce_and": "prod"}
DECOMPOSED = {"quantize": unroll, "dequantize": unroll, "requantize": unroll,
              **dict.fromkeys(LOGICAL_REDUCTIONS, logical_reduction), "conv3d": conv3d_to_ndhwc,
              "conv1d": conv1d_as_conv2d, **dict.fromkeys(("adamw", "sdpa_fw", "sdpa_bw"), ttml_in_4d)}


@dataclass(frozen=True)
class TTIRToTTIRDecompositionPass(ModulePass):
    """Rewrite quantize/dequantize/requantize into their unrolled forms (scales and zero points as operands), the
    logical reductions into arithmetic ones, and conv3d into NDHWC."""

    name: ClassVar[str] = "ttir-to-ttir-decomposition"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if isinstance(op, TTOp) and op.name.startswith("ttir.") and op.ROW.name in DECOMPOSED:
                DECOMPOSED[op.ROW.name](op)
