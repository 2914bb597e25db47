"""Elementwise TTIR ops to TOSA, or to a `linalg.generic` over `math`/`arith` where TOSA has no op.

Tables: `TOSA_UNARY`/`TOSA_BINARY` map one to one; `MATH_UNARY`/`ARITH_BINARY` name the scalar op a
`linalg.generic` applies; `COMPARE` says which TOSA comparison (operands swapped or negated) computes a TTIR
one. The compound ops (gelu, mish, logical ops of floats, ...) are functions written with TOSA ops.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, i1
from xdsl.ir import Operation, SSAValue

from ttmlir.conversion.ttir_to_linalg.emitter import Emitter, element, float_value, is_float, scalar_attr, shape
from ttmlir.dialects.linalg_ext import ErfcOp

TOSA_UNARY = {"abs": "abs", "bitwise_not": "bitwise_not", "ceil": "ceil", "cos": "cos", "erf": "erf", "exp": "exp",
              "floor": "floor", "log": "log", "reciprocal": "reciprocal", "sigmoid": "sigmoid", "sin": "sin",
              "tanh": "tanh", "neg": "negate"}
TOSA_BINARY = {"add": "add", "subtract": "sub", "pow": "pow", "maximum": "maximum", "minimum": "minimum",
               "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor",
               "logical_left_shift": "logical_left_shift", "logical_right_shift": "logical_right_shift"}
# ttir op -> the math op a linalg.generic applies to each element
MATH_UNARY = {"asinh": xmath.AsinhOp, "atan": xmath.AtanOp, "cbrt": xmath.CbrtOp, "erfc": ErfcOp,
              "expm1": xmath.ExpM1Op, "log1p": xmath.Log1pOp, "rsqrt": xmath.RsqrtOp, "tan": xmath.TanOp,
              "asin": xmath.AsinOp, "acos": xmath.AcosOp, "trunc": xmath.TruncOp, "exp2": xmath.Exp2Op}
# ttir op -> (float op, integer op) a linalg.generic applies to each pair of elements
ARITH_BINARY = {"multiply": (arith.MulfOp, arith.MuliOp), "div": (arith.DivfOp, arith.DivSIOp),
                "atan2": (xmath.Atan2Op, None)}
# ttir comparison -> (tosa comparison, operands swapped, negated)
COMPARE = {"eq": ("equal", False, False), "ne": ("equal", False, True), "gt": ("greater", False, False),
           "ge": ("greater_equal", False, False), "lt": ("greater", True, False),
           "le": ("greater_equal", True, False)}
LOGICAL = {"logical_and": "logical_and", "logical_or": "logical_or", "logical_xor": "logical_xor"}


def _result(op: Operation) -> TensorType:
    return op.results[0].type


def _inputs(e: Emitter, op: Operation) -> list[SSAValue]:
    """The operands at the result's rank (TOSA broadcasts only between equal ranks)."""
    rank = len(_result(op).get_shape())
    return [e.to_rank(v, rank) for v in op.operands]


def tosa_unary(e: Emitter, op: Operation) -> SSAValue:
    return e.unary(TOSA_UNARY[op.name.split(".")[1]], op.operands[0])


def tosa_binary(e: Emitter, op: Operation) -> SSAValue:
    a, b = _inputs(e, op)
    return e.tosa(TOSA_BINARY[op.name.split(".")[1]], [a, b], _result(op))


def math_unary(e: Emitter, op: Operation) -> SSAValue:
    cls = MATH_UNARY[op.name.split(".")[1]]
    return e.map_elements([op.operands[0]], _result(op), lambda x: cls(x).results[0])


def arith_binary(e: Emitter, op: Operation) -> SSAValue:
    float_op, int_op = ARITH_BINARY[op.name.split(".")[1]]
    cls = float_op if is_float(element(op.operands[0])) else int_op
    if cls is None:
        raise e.fail(f"'{op.name}' takes floating-point operands here")
    return e.map_elements(list(op.operands), _result(op), lambda a, b: cls(a, b).results[0])


def remainder(e: Emitter, op: Operation) -> SSAValue:
    """Floats: a - floor(a / b) * b (the divisor's sign, as torch.remainder); integers: arith.remsi."""
    if not is_float(element(op.operands[0])):
        return e.map_elements(list(op.operands), _result(op), lambda a, b: arith.RemSIOp(a, b).results[0])

    def body(a, b):
        quotient = xmath.FloorOp(arith.DivfOp(a, b).results[0]).results[0]
        return arith.SubfOp(a, arith.MulfOp(quotient, b).results[0]).results[0]
    return e.map_elements(list(op.operands), _result(op), body)


def _truth(e: Emitter, x: SSAValue) -> SSAValue:
    """x != 0 as a boolean tensor (TTIR's logical ops read any nonzero value as true)."""
    if element(x) == i1:
        return x
    is_zero = e.tosa("equal", [x, e.like(0, x)], TensorType(i1, shape(x)))
    return e.unary("logical_not", is_zero)


def compare(e: Emitter, op: Operation) -> SSAValue:
    name, swapped, negated = COMPARE[op.name.split(".")[1]]
    a, b = _inputs(e, op)
    if swapped:
        a, b = b, a
    out = e.tosa(name, [a, b], TensorType(i1, _result(op).get_shape()))
    if negated:
        out = e.unary("logical_not", out)
    return e.cast(out, element(op.results[0]))


def logical_binary(e: Emitter, op: Operation) -> SSAValue:
    a, b = (_truth(e, v) for v in _inputs(e, op))
    out = e.tosa(LOGICAL[op.name.split(".")[1]], [a, b], TensorType(i1, _result(op).get_shape()))
    return e.cast(out, element(op.results[0]))


def logical_not(e: Emitter, op: Operation) -> SSAValue:
    return e.cast(e.unary("logical_not", _truth(e, op.operands[0])), element(op.results[0]))


def clamp_scalar(e: Emitter, op: Operation) -> SSAValue:
    t = element(op.operands[0])
    low, high = float_value(op.prop("min")), float_value(op.prop("max"))
    return e.tosa("clamp", [op.operands[0]], _result(op), min_val=scalar_attr(low, t), max_val=scalar_attr(high, t))


def _clamp(e: Emitter, x: SSAValue, low: float, high: float) -> SSAValue:
    t = element(x)
    return e.tosa("clamp", [x], x.type, min_val=scalar_attr(low, t), max_val=scalar_attr(high, t))


def relu(e: Emitter, op: Operation) -> SSAValue:
    """max(x, 0) with `linalg.max` against a zero tensor."""
    t = _result(op)
    zeros = e.add(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [0]))).results[0]
    return e.named(linalg.MaxOp, [op.operands[0], zeros], t)


def relu6(e: Emitter, op: Operation) -> SSAValue:
    return _clamp(e, op.operands[0], 0, 6)


def sqrt(e: Emitter, op: Operation) -> SSAValue:
    return e.named(linalg.SqrtOp, [op.operands[0]], _result(op))


def _scaled(e: Emitter, x: SSAValue, factor: float) -> SSAValue:
    return e.mul(x, e.like(factor, x))


def _plus(e: Emitter, x: SSAValue, value: float) -> SSAValue:
    return e.binary("add", x, e.like(value, x))


def gelu(e: Emitter, op: Operation) -> SSAValue:
    """x * Phi(x) = x * 0.5 * (1 + erf(x / sqrt 2))."""
    x = op.operands[0]
    cdf = _scaled(e, _plus(e, e.unary("erf", _scaled(e, x, 1 / math.sqrt(2))), 1), 0.5)
    return e.mul(x, cdf)


def _gelu_grad_erf(e: Emitter, x: SSAValue) -> SSAValue:
    """d/dx x Phi(x) = Phi(x) + x phi(x)."""
    cdf = _scaled(e, _plus(e, e.unary("erf", _scaled(e, x, 1 / math.sqrt(2))), 1), 0.5)
    pdf = _scaled(e, e.unary("exp", _scaled(e, e.mul(x, x), -0.5)), 1 / math.sqrt(2 * math.pi))
    return e.binary("add", cdf, e.mul(x, pdf))


def _gelu_grad_tanh(e: Emitter, x: SSAValue) -> SSAValue:
    """d/dx 0.5 x (1 + tanh(u)), u = k (x + c x^3): 0.5 (1 + t) + 0.5 x (1 - t^2) k (1 + 3 c x^2)."""
    k, c = math.sqrt(2 / math.pi), 0.044715
    x2 = e.mul(x, x)
    t = e.unary("tanh", e.mul(x, _plus(e, _scaled(e, x2, c * k), k)))
    sech2 = _plus(e, e.unary("negate", e.mul(t, t)), 1)
    left = _scaled(e, _plus(e, t, 1), 0.5)
    du = _plus(e, _scaled(e, x2, 3 * c * k), k)
    right = _scaled(e, e.mul(e.mul(x, sech2), du), 0.5)
    return e.binary("add", left, right)


def gelu_bw(e: Emitter, op: Operation) -> SSAValue:
    grad, x = _inputs(e, op)
    approximate = op.prop("approximate")
    tanh = approximate is not None and approximate.data == "tanh"
    return e.mul(grad, _gelu_grad_tanh(e, x) if tanh else _gelu_grad_erf(e, x))


def hardsigmoid(e: Emitter, op: Operation) -> SSAValue:
    """clamp((x + 3) / 6, 0, 1)."""
    return _clamp(e, _scaled(e, _plus(e, op.operands[0], 3), 1 / 6), 0, 1)


def isfinite(e: Emitter, op: Operation) -> SSAValue:
    """x - x is 0 exactly when x is finite (inf - inf and NaN give NaN)."""
    out = _result(op)

    def body(x):
        finite = arith.CmpfOp(arith.SubfOp(x, x).results[0], arith.ConstantOp(scalar_attr(0, element(op.operands[0]))),
                              "oeq").results[0]
        if is_float(out.element_type):
            return arith.UIToFPOp(finite, out.element_type).results[0]
        return arith.ExtUIOp(finite, out.element_type).results[0] if out.element_type != i1 else finite
    return e.map_elements([op.operands[0]], out, body)


def leaky_relu(e: Emitter, op: Operation) -> SSAValue:
    x = op.operands[0]
    slope = float_value(op.prop("parameter"))
    scaled = _scaled(e, x, slope)
    positive = e.tosa("greater", [x, e.like(0, x)], TensorType(i1, shape(x)))
    return e.tosa("select", [positive, x, scaled], x.type)


def mish(e: Emitter, op: Operation) -> SSAValue:
    """x tanh(softplus(x)), softplus(x) = max(x, 0) + log(1 + exp(-|x|)) (no overflow for large x)."""
    x = op.operands[0]
    tail = e.unary("log", _plus(e, e.unary("exp", e.unary("negate", e.unary("abs", x))), 1))
    softplus = e.binary("add", e.binary("maximum", x, e.like(0, x)), tail)
    return e.mul(x, e.unary("tanh", softplus))


def sign(e: Emitter, op: Operation) -> SSAValue:
    x = op.operands[0]
    booleans = TensorType(i1, shape(x))
    positive = e.tosa("greater", [x, e.like(0, x)], booleans)
    zero = e.tosa("equal", [x, e.like(0, x)], booleans)
    zero_or_minus = e.tosa("select", [zero, e.like(0, x), e.like(-1, x)], x.type)
    return e.tosa("select", [positive, e.like(1, x), zero_or_minus], x.type)


def silu(e: Emitter, op: Operation) -> SSAValue:
    x = op.operands[0]
    return e.mul(e.unary("sigmoid", x), x)


def typecast(e: Emitter, op: Operation) -> SSAValue:
    return e.cast(op.operands[0], element(op.results[0]))


def where(e: Emitter, op: Operation) -> SSAValue:
    condition, on_true, on_false = _inputs(e, op)
    return e.tosa("select", [_truth(e, condition), on_true, on_false], _result(op))


PATTERNS = {
    **{name: tosa_unary for name in TOSA_UNARY}, **{name: tosa_binary for name in TOSA_BINARY},
    **{name: math_unary for name in MATH_UNARY}, **{name: arith_binary for name in ARITH_BINARY},
    **{name: compare for name in COMPARE}, **{name: logical_binary for name in LOGICAL},
    "remainder": remainder, "logical_not": logical_not, "clamp_scalar": clamp_scalar, "relu": relu,
    "relu6": relu6, "sqrt": sqrt, "gelu": gelu, "gelu_bw": gelu_bw, "hardsigmoid": hardsigmoid,
    "isfinite": isfinite, "leaky_relu": leaky_relu, "mish": mish, "sign": sign, "silu": silu,
    "typecast": typecast, "where": where,
}
