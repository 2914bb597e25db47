"""`--tosa-to-linalg`: elementwise TOSA ops to `linalg.generic`s over arith/math, as MLIR's pass lowers them: the
result's shape is iterated, each operand read through a map that pins its size-1 dimensions to 0 (TOSA's
broadcast), and the scalar op comes from the tables below by the element type (float or integer). Splat
`tosa.const`s become `arith.constant`s. Data movement, reductions and `tosa.matmul` are generics too
(`structured`); padding, pooling, convolutions, argmax and non-splat constants are a located error, as an op is for
MLIR's pass when no pattern matches it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, ModuleOp, i1
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from ttmlir.conversion.tosa_to_linalg.structured import STRUCTURED
from ttmlir.conversion.ttir_to_linalg.emitter import Emitter, is_float
from ttmlir.errors import PassFailure


# The scalar functions run inside the generic's block builder (`Emitter.map_elements`): the ops they construct
# land in that block.
def _const(e: Emitter, value: float | int, t: Attribute) -> SSAValue:
    return arith.ConstantOp(FloatAttr(float(value), t) if is_float(t) else IntegerAttr(int(value), t)).result


def _op(e: Emitter, op: Operation) -> SSAValue:
    return op.results[0]


def _abs(e, x):
    if is_float(x.type):
        return _op(e, math.AbsFOp(x))
    negative = _op(e, arith.CmpiOp(x, _const(e, 0, x.type), "slt"))
    return _op(e, arith.SelectOp(negative, _op(e, arith.SubiOp(_const(e, 0, x.type), x)), x))


def _sigmoid(e, x):
    one = _const(e, 1, x.type)
    return _op(e, arith.DivfOp(one, _op(e, arith.AddfOp(one, _op(e, math.ExpOp(_op(e, arith.NegfOp(x))))))))


def _float_or_int(float_op, int_op) -> Callable:
    return lambda e, a, b: _op(e, (float_op if is_float(a.type) else int_op)(a, b))


def _compare(float_predicate: str, int_predicate: str) -> Callable:
    return lambda e, a, b: _op(e, arith.CmpfOp(a, b, float_predicate) if is_float(a.type)
                               else arith.CmpiOp(a, b, int_predicate))


UNARY: dict[str, Callable] = {
    "abs": _abs, "ceil": lambda e, x: _op(e, math.CeilOp(x)), "floor": lambda e, x: _op(e, math.FloorOp(x)),
    "cos": lambda e, x: _op(e, math.CosOp(x)), "sin": lambda e, x: _op(e, math.SinOp(x)),
    "exp": lambda e, x: _op(e, math.ExpOp(x)), "log": lambda e, x: _op(e, math.LogOp(x)),
    "tanh": lambda e, x: _op(e, math.TanhOp(x)), "erf": lambda e, x: _op(e, math.ErfOp(x)),
    "rsqrt": lambda e, x: _op(e, math.RsqrtOp(x)), "sigmoid": _sigmoid,
    "reciprocal": lambda e, x: _op(e, arith.DivfOp(_const(e, 1, x.type), x)),
    "bitwise_not": lambda e, x: _op(e, arith.XOrIOp(x, _const(e, -1, x.type))),
    "logical_not": lambda e, x: _op(e, arith.XOrIOp(x, _const(e, 1, x.type))),
}
BINARY: dict[str, Callable] = {
    "add": _float_or_int(arith.AddfOp, arith.AddiOp), "sub": _float_or_int(arith.SubfOp, arith.SubiOp),
    "maximum": _float_or_int(arith.MaximumfOp, arith.MaxSIOp), "minimum": _float_or_int(arith.MinimumfOp, arith.MinSIOp),
    "pow": lambda e, a, b: _op(e, math.PowFOp(a, b)), "intdiv": lambda e, a, b: _op(e, arith.DivSIOp(a, b)),
    "bitwise_and": lambda e, a, b: _op(e, arith.AndIOp(a, b)), "bitwise_or": lambda e, a, b: _op(e, arith.OrIOp(a, b)),
    "bitwise_xor": lambda e, a, b: _op(e, arith.XOrIOp(a, b)), "logical_and": lambda e, a, b: _op(e, arith.AndIOp(a, b)),
    "logical_or": lambda e, a, b: _op(e, arith.OrIOp(a, b)), "logical_xor": lambda e, a, b: _op(e, arith.XOrIOp(a, b)),
    "logical_left_shift": lambda e, a, b: _op(e, arith.ShLIOp(a, b)),
    "logical_right_shift": lambda e, a, b: _op(e, arith.ShRUIOp(a, b)),
    "arithmetic_right_shift": lambda e, a, b: _op(e, arith.ShRSIOp(a, b)),
    "equal": _compare("oeq", "eq"), "greater": _compare("ogt", "sgt"), "greater_equal": _compare("oge", "sge"),
}


def _cast(e: Emitter, x: SSAValue, target: Attribute) -> SSAValue:
    """TOSA's cast: floats to integers round to nearest even and saturate; anything to i1 is `!= 0`."""
    source = x.type
    if source == target:
        return x
    if target == i1:
        return _op(e, arith.CmpfOp(x, _const(e, 0, source), "une") if is_float(source)
                   else arith.CmpiOp(x, _const(e, 0, source), "ne"))
    if is_float(source) and is_float(target):
        return _op(e, (arith.ExtFOp if target.bitwidth > source.bitwidth else arith.TruncFOp)(x, target))
    if is_float(target):
        return _op(e, (arith.UIToFPOp if source == i1 else arith.SIToFPOp)(x, target))
    if is_float(source):
        width = target.width.data
        low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
        rounded = _op(e, math.RoundEvenOp(x))
        clamped = _op(e, arith.MinimumfOp(_op(e, arith.MaximumfOp(rounded, _const(e, low, source))),
                                          _const(e, high, source)))
        return _op(e, arith.FPToSIOp(clamped, target))
    if target.width.data > source.width.data:
        return _op(e, (arith.ExtUIOp if source == i1 else arith.ExtSIOp)(x, target))
    return _op(e, arith.TruncIOp(x, target))


def _constant_operand(op: Operation, index: int) -> float | int | None:
    """The value of a splat constant operand (a shift, a zero point)."""
    owner = op.operands[index].owner
    # a tosa.const, or the arith.constant lowered from one
    values = owner.properties.get("values", owner.properties.get("value")) if isinstance(owner, Operation) else None
    if isinstance(values, DenseIntOrFPElementsAttr) and values.is_splat():
        return values.get_values()[0]
    return None


def lower(e: Emitter, op: Operation) -> SSAValue:
    """The tensor standing for the TOSA op's result; the ops computing it are in `e.ops`."""
    kind, out = op.name.removeprefix("tosa."), op.results[0].type
    if kind == "const":
        values = op.properties["values"]
        if not (isinstance(values, DenseIntOrFPElementsAttr) and values.is_splat()):
            raise PassFailure(op, "failed to legalize operation 'tosa.const': only splat constants are lowered here")
        return e.add(arith.ConstantOp(values)).result
    if kind in UNARY:
        body = lambda x: UNARY[kind](e, x)  # noqa: E731
        inputs = [op.operands[0]]
    elif kind in BINARY:
        body = lambda a, b: BINARY[kind](e, a, b)  # noqa: E731
        inputs = list(op.operands[:2])
    elif kind == "mul":
        if _constant_operand(op, 2) != 0:
            raise PassFailure(op, "failed to legalize operation 'tosa.mul': a non-zero shift is not lowered here")
        body = lambda a, b: _float_or_int(arith.MulfOp, arith.MuliOp)(e, a, b)  # noqa: E731
        inputs = list(op.operands[:2])
    elif kind == "negate":
        if _constant_operand(op, 1) not in (0, None) or len(op.operands) > 2 and _constant_operand(op, 2) != 0:
            raise PassFailure(op, "failed to legalize operation 'tosa.negate': non-zero zero points")
        body = lambda x: _op(e, arith.NegfOp(x)) if is_float(x.type) else \
            _op(e, arith.SubiOp(_const(e, 0, x.type), x))  # noqa: E731
        inputs = [op.operands[0]]
    elif kind == "clamp":
        low, high = op.properties["min_val"], op.properties["max_val"]
        body = lambda x: BINARY["minimum"](e, BINARY["maximum"](e, x, _const(e, low.value.data, x.type)),
                                           _const(e, high.value.data, x.type))  # noqa: E731
        inputs = [op.operands[0]]
    elif kind == "select":
        body = lambda c, a, b: _op(e, arith.SelectOp(c, a, b))  # noqa: E731
        inputs = list(op.operands)
    elif kind == "cast":
        body = lambda x: _cast(e, x, out.element_type)  # noqa: E731
        inputs = [op.operands[0]]
    elif kind in STRUCTURED:
        return STRUCTURED[kind](e, op)
    else:
        raise PassFailure(op, f"failed to legalize operation '{op.name}' that was explicitly marked illegal")
    return e.map_elements(inputs, out, body)


@dataclass(frozen=True)
class TosaToLinalgPass(ModulePass):
    """Lower TOSA to LinAlg on tensors (its elementwise ops, see the module doc)."""

    name = "tosa-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # a shape constant is read by the op taking it, then erased with it
        for tosa in [o for o in op.walk() if o.name.startswith("tosa.") and o.name != "tosa.const_shape"]:
            e = Emitter(tosa)
            value = lower(e, tosa)
            block = tosa.parent_block()
            for created in e.ops:
                block.insert_op_before(created, tosa)
            tosa.results[0].replace_all_uses_with(value)
        for tosa in reversed([o for o in op.walk() if o.name.startswith("tosa.")]):
            tosa.detach()
            tosa.erase()
