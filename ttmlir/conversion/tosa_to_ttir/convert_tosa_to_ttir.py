"""`--convert-tosa-to-ttir`: every TOSA op becomes the TTIR op that computes its result.

Ops that map one to one are rows of `ONE_TO_ONE` (tosa op -> ttir op, the operands TTIR takes); the others are
functions in `PATTERNS`. The conversion is full, as upstream's: a TOSA op nothing lowers, or a form of one no
TTIR op computes (a shifted multiply, a non-zero zero point), is a located error and the pass fails.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from xdsl.context import Context
from xdsl.dialects.builtin import (DenseArrayBase, DenseIntOrFPElementsAttr, FloatAttr, IntegerType,
                                   ModuleOp, TensorType, f32, i64)
from xdsl.ir import Attribute, SSAValue
from xdsl.passes import ModulePass

from ttmlir.ir.props import KINDS
from ttmlir.dialects.tosa import TosaOp
from ttmlir.errors import PassFailure

# tosa op -> (ttir op, the tosa operands it keeps, in TTIR's order)
ONE_TO_ONE = {
    "abs": ("abs", "input1"), "bitwise_not": ("bitwise_not", "input1"), "ceil": ("ceil", "input1"),
    "cos": ("cos", "input1"), "erf": ("erf", "input1"), "exp": ("exp", "input1"), "floor": ("floor", "input1"),
    "log": ("log", "input1"), "logical_not": ("logical_not", "input1"), "reciprocal": ("reciprocal", "input1"),
    "rsqrt": ("rsqrt", "input1"), "sigmoid": ("sigmoid", "input1"), "sin": ("sin", "input1"),
    "tanh": ("tanh", "input1"), "cast": ("typecast", "input"),
    "add": ("add", "input1 input2"), "sub": ("subtract", "input1 input2"), "maximum": ("maximum", "input1 input2"),
    "minimum": ("minimum", "input1 input2"), "pow": ("pow", "input1 input2"),
    "bitwise_and": ("bitwise_and", "input1 input2"), "bitwise_or": ("bitwise_or", "input1 input2"),
    "bitwise_xor": ("bitwise_xor", "input1 input2"), "logical_and": ("logical_and", "input1 input2"),
    "logical_or": ("logical_or", "input1 input2"), "logical_xor": ("logical_xor", "input1 input2"),
    "logical_left_shift": ("logical_left_shift", "input1 input2"),
    "logical_right_shift": ("logical_right_shift", "input1 input2"),
    "equal": ("eq", "input1 input2"), "greater": ("gt", "input1 input2"), "greater_equal": ("ge", "input1 input2"),
    "select": ("where", "input1 input2 input3"), "matmul": ("matmul", "a b"),
}
# tosa reduction -> ttir reduction (TOSA keeps the reduced dimension)
REDUCTIONS = {"reduce_sum": "sum", "reduce_max": "max", "reduce_min": "min", "reduce_product": "prod",
              "reduce_all": "reduce_and", "reduce_any": "reduce_or"}
# operands that must hold zeros for the TTIR op to compute the TOSA op (quantization zero points)
ZERO_POINTS = {"negate": ("input1_zp", "output_zp"), "matmul": ("a_zp", "b_zp"),
               "avg_pool2d": ("input_zp", "output_zp"), "conv2d": ("input_zp", "weight_zp")}


class Rewriter:
    """Builds TTIR ops in place of one TOSA op; constants already converted are known by their value."""

    def __init__(self, op: TosaOp, constants: dict[SSAValue, DenseIntOrFPElementsAttr]):
        self.op, self.constants, self.ops = op, constants, []

    def ttir(self, name: str, operands, result_type: Attribute, **props) -> SSAValue:
        from ttmlir.dialects.ttir import TTIR_OP_CLASSES
        cls = TTIR_OP_CLASSES[name]
        kinds = {p: kind for p, kind, _, _ in cls.ROW.props}
        built = {k: v if isinstance(v, Attribute) else KINDS[kinds[k]].build(v) for k, v in props.items()
                 if v is not None}
        new = cls.create(operands=list(operands), result_types=[result_type], properties=built)
        new.location = self.op.location
        self.ops.append(new)
        return new.results[0]

    def fail(self, message: str) -> PassFailure:
        return PassFailure(self.op, f"'{self.op.name}' op {message}")

    def constant_of(self, value: SSAValue, what: str) -> DenseIntOrFPElementsAttr:
        attr = self.constants.get(value)
        if attr is None:
            raise self.fail(f"conversion expects {what} to be defined by a constant")
        return attr


def _values(attr: DenseIntOrFPElementsAttr) -> list:
    count = math.prod(attr.get_shape())
    values = attr.get_element_type().unpack(attr.data.data, len(attr.data.data) // attr.get_element_type().compile_time_size)
    return list(values) * count if len(values) == 1 and count > 1 else list(values)


def _one_to_one(r: Rewriter) -> SSAValue:
    name, keep = ONE_TO_ONE[r.op.name.split(".")[1]]
    props = {"conservative_folding": False} if name == "typecast" else {}
    return r.ttir(name, [r.op.value(n) for n in keep.split()], r.op.results[0].type, **props)


def _mul(r: Rewriter) -> SSAValue:
    shift = r.op.value("shift")
    if shift not in r.constants:
        raise r.fail("conversion expects shift value to be defined by a tosa.const op")
    if any(v != 0 for v in _values(r.constants[shift])):
        raise r.fail("conversion does not support shifted multiply")
    return r.ttir("multiply", [r.op.value("input1"), r.op.value("input2")], r.op.results[0].type)


def _negate(r: Rewriter) -> SSAValue:
    return r.ttir("neg", [r.op.value("input1")], r.op.results[0].type)


def _number(attr: Attribute) -> float:
    return float(attr.value.data)


def _clamp(r: Rewriter) -> SSAValue:
    return r.ttir("clamp_scalar", [r.op.value("input")], r.op.results[0].type,
                  min=FloatAttr(_number(r.op.attr("min_val")), f32), max=FloatAttr(_number(r.op.attr("max_val")), f32))


def _concat(r: Rewriter) -> SSAValue:
    return r.ttir("concat", list(r.op.operands), r.op.results[0].type, dim=r.op.attr("axis").value.data)


def _reduce(r: Rewriter) -> SSAValue:
    name = REDUCTIONS[r.op.name.split(".")[1]]
    return r.ttir(name, [r.op.value("input")], r.op.results[0].type, keep_dim=True,
                  dim_arg=[r.op.attr("axis").value.data])


def _pool(r: Rewriter) -> SSAValue:
    # TOSA pads [top, bottom, left, right]; TTIR [top, left, bottom, right]
    top, bottom, left, right = r.op.attr("pad").get_values()
    i32s = lambda values: DenseArrayBase.from_list(IntegerType(32), [int(v) for v in values])
    props = {"kernel": i32s(r.op.attr("kernel").get_values()), "stride": i32s(r.op.attr("stride").get_values()),
             "dilation": i32s((1, 1)), "padding": i32s((top, left, bottom, right)), "ceil_mode": False}
    if r.op.name == "tosa.avg_pool2d":
        props["count_include_pad"] = False  # TOSA divides by the window's elements inside the input
        return r.ttir("avg_pool2d", [r.op.value("input")], r.op.results[0].type, **props)
    return r.ttir("max_pool2d", [r.op.value("input")], r.op.results[0].type, **props)


def _conv2d(r: Rewriter) -> SSAValue:
    """TOSA's weight is OHWI and its bias one value per output channel; TTIR's conv2d takes OIHW and a bias of
    1x1x1xO. Pads reorder as for pooling."""
    weight, bias = r.op.value("weight"), r.op.value("bias")
    o, kh, kw, i = weight.type.get_shape()
    oihw = r.ttir("permute", [weight], TensorType(weight.type.element_type, [o, i, kh, kw]),
                  permutation=DenseArrayBase.from_list(i64, [0, 3, 1, 2]))
    bias4 = r.ttir("reshape", [bias], TensorType(bias.type.element_type, [1, 1, 1, o]), shape=[1, 1, 1, o])
    top, bottom, left, right = r.op.attr("pad").get_values()
    i32s = lambda values: DenseArrayBase.from_list(IntegerType(32), [int(v) for v in values])
    return r.ttir("conv2d", [r.op.value("input"), oihw, bias4], r.op.results[0].type,
                  stride=i32s(r.op.attr("stride").get_values()), dilation=i32s(r.op.attr("dilation").get_values()),
                  padding=i32s((top, left, bottom, right)), groups=1)


def _const(r: Rewriter) -> SSAValue:
    values = r.op.attr("values")
    result = r.ttir("constant", [], r.op.results[0].type, value=values)
    r.constants[result] = values
    return result


def _const_shape(r: Rewriter) -> SSAValue:
    """A shape becomes the i64 tensor holding it; reshapes, tiles, pads and slices read it as a constant."""
    sizes = [int(v) for v in _values(r.op.attr("values"))]
    t = TensorType(i64, [len(sizes)])
    values = DenseIntOrFPElementsAttr.from_list(t, sizes)
    result = r.ttir("constant", [], t, value=values)
    r.constants[result] = values
    return result


def _reshape(r: Rewriter) -> SSAValue:
    sizes = [int(v) for v in _values(r.constant_of(r.op.value("shape"), "shape input"))]
    return r.ttir("reshape", [r.op.value("input1")], r.op.results[0].type, shape=sizes)


def _transpose(r: Rewriter) -> SSAValue:
    perms = DenseArrayBase.from_list(i64, [int(p) for p in r.op.attr("perms").get_values()])
    return r.ttir("permute", [r.op.value("input1")], r.op.results[0].type, permutation=perms)


def _tile(r: Rewriter) -> SSAValue:
    multiples = [int(v) for v in _values(r.constant_of(r.op.value("multiples"), "multiples"))]
    return r.ttir("repeat", [r.op.value("input1")], r.op.results[0].type,
                  repeat_dimensions=DenseArrayBase.from_list(i64, multiples))


def _slice(r: Rewriter) -> SSAValue:
    start = [int(v) for v in _values(r.constant_of(r.op.value("start"), "start"))]
    size = [int(v) for v in _values(r.constant_of(r.op.value("size"), "size"))]
    return r.ttir("slice_static", [r.op.value("input1")], r.op.results[0].type, begins=start,
                  ends=[b + s for b, s in zip(start, size)], step=[1] * len(start))


def _pad(r: Rewriter) -> SSAValue:
    padding = [int(v) for v in _values(r.constant_of(r.op.value("padding"), "padding"))]
    fill = _values(r.constant_of(r.op.value("pad_const"), "pad_const"))[0]
    return r.ttir("pad", [r.op.value("input1")], r.op.results[0].type,
                  padding=DenseArrayBase.from_list(IntegerType(32), padding), value=FloatAttr(float(fill), f32))


PATTERNS: dict[str, Callable[[Rewriter], SSAValue]] = {
    **{name: _one_to_one for name in ONE_TO_ONE}, **{name: _reduce for name in REDUCTIONS},
    "mul": _mul, "negate": _negate, "clamp": _clamp, "concat": _concat, "max_pool2d": _pool, "avg_pool2d": _pool,
    "const": _const, "const_shape": _const_shape, "reshape": _reshape, "transpose": _transpose, "tile": _tile,
    "slice": _slice, "pad": _pad, "conv2d": _conv2d,
}


def _check_zero_points(r: Rewriter) -> None:
    for name in ZERO_POINTS.get(r.op.name.split(".")[1], ()):
        if any(v != 0 for v in _values(r.constant_of(r.op.value(name), name))):
            raise r.fail(f"conversion does not support a non-zero {name}")


@dataclass(frozen=True)
class ConvertTosaToTTIRPass(ModulePass):
    """Convert TOSA dialect to TTIR dialect."""

    name = "convert-tosa-to-ttir"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        constants: dict[SSAValue, DenseIntOrFPElementsAttr] = {}
        for tosa in [o for o in op.walk() if isinstance(o, TosaOp)]:
            pattern = PATTERNS.get(tosa.name.split(".")[1])
            if pattern is None:
                raise PassFailure(tosa, f"failed to legalize operation '{tosa.name}' that was explicitly marked "
                                        f"illegal")
            r = Rewriter(tosa, constants)
            _check_zero_points(r)
            result = pattern(r)
            block = tosa.parent_block()
            for new in r.ops:
                block.insert_op_before(new, tosa)
            tosa.results[0].replace_all_uses_with(result)
            block.erase_op(tosa)
