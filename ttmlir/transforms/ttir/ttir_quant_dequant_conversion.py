"""`--ttir-quant-dequant-conversion`: run ops on quantized values where they can, moving dequantizes down.

A dequantize read only by a quantizable op (elementwise unary and binary ops, conv2d, conv_transpose2d, max_pool2d,
avg_pool2d) moves below it. An op that computes correctly on the stored integers runs on the quantized inputs and its
result is dequantized: add when its quantized operands share one quantized type (a float operand is quantized to
it), a max_pool2d of a per-tensor type (a maximum does not see the scale), a conv2d or conv_transpose2d of 8-bit
input and weight whose zero points agree (its output's scale per channel the input's times the weight's, in i32, or
i8 when a conv2d has a bias, which is then quantized to it). Any other op keeps its float inputs and a
quantize/dequantize pair in the dequantize's type follows it, so the dequantize keeps moving down. A quantize of a
dequantize becomes one requantize (none when the types agree).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.transforms.dead_code_elimination import region_dce

from ttmlir.dialects.quant import UniformQuantizedType, full_range
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.ir.props import scalar
from ttmlir.ir.tt_op import TTOp

# upstream's TTIR_ElementwiseUnaryOp/BinaryOp subclasses and selu: quantizable by default (the fallback pair)
ELEMENTWISE = frozenset((
    "abs", "cbrt", "ceil", "cos", "acos", "floor", "frac", "trunc", "gelu", "isfinite", "logical_not", "bitwise_not",
    "mish", "neg", "tan", "atan", "tanh", "reciprocal", "relu", "relu6", "rsqrt", "sigmoid", "softsign",
    "hardsigmoid", "silu", "sign", "signbit", "sin", "asin", "asinh", "sqrt", "square", "typecast", "bitcast_convert",
    "log", "log1p", "expm1", "exp", "exp2", "erf", "erfc", "leaky_relu", "selu",
    "eq", "ne", "ge", "gt", "le", "lt", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
    "bitwise_xor", "minimum", "logical_right_shift", "right_shift", "logical_left_shift", "subtract", "remainder",
    "pow", "atan2", "add", "multiply", "div", "maximum", "gelu_bw"))


def _quantized(value: SSAValue) -> UniformQuantizedType | None:
    element = value.type.element_type if isinstance(value.type, TensorType) else None
    return element if isinstance(element, UniformQuantizedType) else None


def _create(name: str, operands, result_type, like: Operation, properties: dict | None = None) -> Operation:
    new = TTIR_OP_CLASSES[name].create(operands=list(operands), result_types=[result_type],
                                       properties=dict(like.properties if properties is None else properties))
    new.location = like.location
    return new


def _retyped(t: TensorType, element) -> TensorType:
    return TensorType(element, t.get_shape(), t.encoding)


def _aligned(sources: list[SSAValue]) -> bool:
    """The quantized values among `sources` all have one quantized type."""
    return len({q for q in map(_quantized, sources) if q is not None}) <= 1


def _add(op: Operation, sources: list[SSAValue], made: list[Operation]) -> Operation | None:
    """Both operands in one quantized type: a float operand of the type's expressed type is quantized to it."""
    lhs, rhs = sources
    quant = _quantized(lhs) or _quantized(rhs)
    if _quantized(lhs) is None or _quantized(rhs) is None:
        float_side = 0 if _quantized(lhs) is None else 1
        value = sources[float_side]
        if value.type.element_type != quant.data.expressed:
            return None
        quantize = _create("quantize", [value], _retyped(value.type, quant), op, {})
        made.append(quantize)
        sources = [quantize.results[0] if i == float_side else v for i, v in enumerate(sources)]
    return _create("add", sources, _retyped(op.results[0].type, quant), op)


def _output_type(sources: list[SSAValue], result: TensorType, storage_width: int, out_axis: int):
    """The quantized type of a convolution's accumulator (upstream's computeOutputScalesAndZeroPoint): the input's
    scale times the weight's (per tensor, or per output channel -- `out_axis` of the result, dim 0 of the OIHW
    weight -- for a per-axis weight), the input's zero point, in the result's float type. None when the parameters
    do not allow it."""
    q_in, q_weight = _quantized(sources[0]).data, _quantized(sources[1]).data
    zero_point = q_in.zero_points[0]
    if q_in.axis is not None or any(z != zero_point for z in q_weight.zero_points) or \
            q_in.expressed != result.element_type:
        return None
    if q_weight.axis is not None and (q_weight.axis != 0 or len(q_weight.scales) != result.get_shape()[out_axis]):
        return None
    low, high = full_range(True, storage_width)
    return UniformQuantizedType(replace(
        q_in, signed=True, width=storage_width, storage_min=low, storage_max=high,
        axis=None if q_weight.axis is None else out_axis, scales=tuple(q_in.scales[0] * s for s in q_weight.scales),
        zero_points=(zero_point,) * len(q_weight.scales)))


def _eight_bit(values: list[SSAValue]) -> bool:
    return all(_quantized(v) is not None and _quantized(v).data.width == 8 for v in values)


def _conv2d(op: Operation, sources: list[SSAValue], made: list[Operation]) -> Operation | None:
    """With a bias the output is stored in i8 (the bias, quantized to it, is added in the kernel), else in i32."""
    channel_dim = scalar(op.prop("channel_dim"))
    has_bias = len(sources) > 2
    out = _output_type(sources, op.results[0].type, 8 if has_bias else 32, 3 if channel_dim is None else channel_dim)
    if out is None:
        return None
    if has_bias:
        bias = _create("quantize", [sources[2]], _retyped(sources[2].type, out), op, {})
        made.append(bias)
        sources = [*sources[:2], bias.results[0]]
    return _create("conv2d", sources, _retyped(op.results[0].type, out), op, _without_compat(op))


def _conv_transpose2d(op: Operation, sources: list[SSAValue], made: list[Operation]) -> Operation | None:
    out = _output_type(sources, op.results[0].type, 32, 3)  # an NHWC output
    if out is None:
        return None
    return _create("conv_transpose2d", sources, _retyped(op.results[0].type, out), op, _without_compat(op))


def _max_pool2d(op: Operation, sources: list[SSAValue], made: list[Operation]) -> Operation | None:
    quant = _quantized(sources[0])
    if quant is None or quant.per_axis:
        return None
    return _create("max_pool2d", sources, _retyped(op.results[0].type, quant), op, _without_compat(op))


def _without_compat(op: Operation) -> dict:
    return {k: v for k, v in op.properties.items() if k != "flattened_compat_info"}


Rewrite = Callable[[Operation, list[SSAValue], list[Operation]], "Operation | None"]
# op -> (is the quantized rewrite favourable for these sources, the rewrite (None: the fallback pair))
QUANTIZABLE: dict[str, tuple[Callable[[Operation, list[SSAValue]], bool], Rewrite | None]] = {
    **{name: (lambda op, sources: True, None) for name in ELEMENTWISE},
    "add": (lambda op, sources: _aligned(sources), _add),
    "conv2d": (lambda op, sources: _eight_bit(sources[:2]), _conv2d),
    "conv_transpose2d": (lambda op, sources: len(sources) == 2 and _eight_bit(sources), _conv_transpose2d),
    "max_pool2d": (lambda op, sources: True, _max_pool2d),
    "avg_pool2d": (lambda op, sources: True, None),  # a mean of stored integers would truncate: never quantized
}


def _dequantize_of(value: SSAValue) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, TTOp) and owner.name == "ttir.dequantize" else None


def _commute(op: Operation, fallback: set[Operation]) -> bool:
    """Move a single-use dequantize operand of `op` below it (upstream's CommuteDequantizeBelowQuantizableOp)."""
    favorable, rewrite = QUANTIZABLE[op.ROW.name]
    sources = [dq.operands[0] if (dq := _dequantize_of(v)) is not None else v for v in op.operands]
    dequantize = next((dq for v in op.operands if (dq := _dequantize_of(v)) is not None
                       and dq.results[0].has_one_use()), None)
    if dequantize is None or not favorable(op, sources):
        return False
    made: list[Operation] = []
    new = rewrite(op, sources, made) if rewrite is not None else None
    block = op.parent
    if new is not None:
        block.insert_ops_before([*made, new], op)
        results = []
        for old, value in zip(op.results, new.results):
            if _quantized(value) is not None:
                back = _create("dequantize", [value], old.type, op, {})
                block.insert_op_before(back, op)
                value = back.results[0]
            results.append(value)
    else:  # the op stays in floats; a quantize/dequantize pair after it carries the dequantize on
        clone = op.clone()
        block.insert_op_before(clone, op)
        fallback.add(clone)
        quant, results = _quantized(dequantize.operands[0]), []
        for result in clone.results:
            quantize = _create("quantize", [result], _retyped(result.type, quant), op, {})
            back = _create("dequantize", [quantize.results[0]], result.type, op, {})
            block.insert_ops_before([quantize, back], op)
            results.append(back.results[0])
    for old, value in zip(op.results, results):
        old.replace_all_uses_with(value)
    Rewriter.erase_op(op)
    return True


def _requantize(quantize: Operation) -> bool:
    """quantize(dequantize(x)) is requantize(x); a requantize to x's own type is x."""
    dequantize = _dequantize_of(quantize.operands[0])
    if dequantize is None:
        return False
    source = dequantize.operands[0]
    if source.type == quantize.results[0].type:
        quantize.results[0].replace_all_uses_with(source)
        Rewriter.erase_op(quantize)
    else:
        Rewriter.replace_op(quantize, _create("requantize", [source], quantize.results[0].type, quantize, {}))
    return True


@dataclass(frozen=True)
class TTIRQuantDequantConversionPass(ModulePass):
    """Convert floating-point ops surrounded by quantize/dequantize into TTIR quantized operations."""

    name: ClassVar[str] = "ttir-quant-dequant-conversion"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        fallback: set[Operation] = set()  # ops already given the pair: not commuted again
        changed = True
        while changed:  # to a fixed point, as the greedy driver
            changed = False
            for op in list(module.walk()):
                if op.parent is None or not isinstance(op, TTOp) or not op.name.startswith("ttir."):
                    continue
                if op.ROW.name == "quantize":
                    changed |= _requantize(op)
                elif op.ROW.name in QUANTIZABLE and op not in fallback:
                    changed |= _commute(op, fallback)
            for func in [op for op in module.walk() if isinstance(op, FuncOp)]:
                region_dce(func.body)  # the dequantizes moved past, as the driver erases dead ops
