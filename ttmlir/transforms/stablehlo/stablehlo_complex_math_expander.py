"""`--stablehlo-complex-math-expander`: elementwise math on complex tensors written with real arithmetic.

Each complex op becomes `stablehlo.real`/`stablehlo.imag` of its operands, real-valued ops on those parts and
a `stablehlo.complex` of the result's parts (or a real result, for `abs` and `compare`, which orders complex
values lexicographically as the spec does); `convert` and `iota` to or from complex types become real ones on the
parts. `--stablehlo-complex-data-type-conversion` then takes the complex/real/imag ops apart, so a program
computing with complex numbers reaches the device as real tensors. An elementwise op on complex values with no
rule here is refused, naming it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import BytesAttr, ComplexType, DenseIntOrFPElementsAttr, IntegerType, ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import stablehlo as shlo
from ttmlir.dialects.stablehlo_attrs import ComparisonDirectionAttr
from ttmlir.errors import PassFailure


class _Emit:
    """Builds real-valued stablehlo ops in front of `anchor`, all on the complex type's part type."""

    def __init__(self, anchor: Operation):
        self.anchor = anchor
        complex_value = next(v for v in (*anchor.results, *anchor.operands) if is_complex(v))
        self.part = _part_type(complex_value)

    def op(self, name: str, *operands: SSAValue, type_=None) -> SSAValue:
        new = shlo.OPS[name].create(operands=list(operands), result_types=[type_ or self.part])
        Rewriter.insert_op(new, InsertPoint.before(self.anchor))
        return new.results[0]

    def parts(self, value: SSAValue) -> tuple[SSAValue, SSAValue]:
        return self.op("real", value, type_=_part_type(value)), self.op("imag", value, type_=_part_type(value))

    def const(self, value: float) -> SSAValue:
        """`value` everywhere, stored once as a splat."""
        data = BytesAttr(self.part.element_type.pack([value]))
        new = shlo.OPS["constant"].create(result_types=[self.part],
                                          properties={"value": DenseIntOrFPElementsAttr(self.part, data)})
        Rewriter.insert_op(new, InsertPoint.before(self.anchor))
        return new.results[0]

    def compare(self, direction: str, x: SSAValue, y: SSAValue) -> SSAValue:
        compare = shlo.OPS["compare"].create(operands=[x, y], result_types=[self.mask], properties={
            "comparison_direction": ComparisonDirectionAttr(direction)})
        Rewriter.insert_op(compare, InsertPoint.before(self.anchor))
        return compare.results[0]

    @property
    def mask(self) -> TensorType:
        return TensorType(IntegerType(1), self.part.get_shape())

    def select_where(self, direction: str, x: SSAValue, y: SSAValue, then: SSAValue, other: SSAValue) -> SSAValue:
        """`then` where `x <direction> y`, else `other`."""
        return self.op("select", self.compare(direction, x, y), then, other)


def _add(e: _Emit, x, y):
    (a, b), (c, d) = e.parts(x), e.parts(y)
    return e.op("add", a, c), e.op("add", b, d)


def _subtract(e: _Emit, x, y):
    (a, b), (c, d) = e.parts(x), e.parts(y)
    return e.op("subtract", a, c), e.op("subtract", b, d)


def _negate(e: _Emit, x):
    a, b = e.parts(x)
    return e.op("negate", a), e.op("negate", b)


def _multiply(e: _Emit, x, y):  # (a + bi)(c + di) = (ac - bd) + (bc + ad)i
    (a, b), (c, d) = e.parts(x), e.parts(y)
    return (e.op("subtract", e.op("multiply", a, c), e.op("multiply", b, d)),
            e.op("add", e.op("multiply", b, c), e.op("multiply", a, d)))


def _divide(e: _Emit, x, y):  # (a + bi)/(c + di) = ((ac + bd) + (bc - ad)i) / (c^2 + d^2)
    (a, b), (c, d) = e.parts(x), e.parts(y)
    norm = e.op("add", e.op("multiply", c, c), e.op("multiply", d, d))
    return (e.op("divide", e.op("add", e.op("multiply", a, c), e.op("multiply", b, d)), norm),
            e.op("divide", e.op("subtract", e.op("multiply", b, c), e.op("multiply", a, d)), norm))


def _exponential(e: _Emit, x):  # e^(a + bi) = e^a cos b + (e^a sin b)i
    a, b = e.parts(x)
    scale = e.op("exponential", a)
    return e.op("multiply", scale, e.op("cosine", b)), e.op("multiply", scale, e.op("sine", b))


def _abs(e: _Emit, x):  # |a + bi| = sqrt(a^2 + b^2): a real result
    a, b = e.parts(x)
    return e.op("sqrt", e.op("add", e.op("multiply", a, a), e.op("multiply", b, b)))


def _cosh_sinh(e: _Emit, b):
    """cosh b and sinh b from e^b and e^-b."""
    up, down, half = e.op("exponential", b), e.op("exponential", e.op("negate", b)), e.const(0.5)
    return e.op("multiply", e.op("add", up, down), half), e.op("multiply", e.op("subtract", up, down), half)


def _sine(e: _Emit, x):  # sin(a + bi) = sin a cosh b + (cos a sinh b)i
    a, b = e.parts(x)
    cosh, sinh = _cosh_sinh(e, b)
    return e.op("multiply", e.op("sine", a), cosh), e.op("multiply", e.op("cosine", a), sinh)


def _cosine(e: _Emit, x):  # cos(a + bi) = cos a cosh b - (sin a sinh b)i
    a, b = e.parts(x)
    cosh, sinh = _cosh_sinh(e, b)
    return e.op("multiply", e.op("cosine", a), cosh), e.op("negate", e.op("multiply", e.op("sine", a), sinh))


def _tanh(e: _Emit, x):  # tanh(a + bi) = (sinh 2a + (sin 2b)i) / (cosh 2a + cos 2b)
    a, b = e.parts(x)
    two = e.const(2.0)
    a2, b2 = e.op("multiply", a, two), e.op("multiply", b, two)
    cosh, sinh = _cosh_sinh(e, a2)
    denominator = e.op("add", cosh, e.op("cosine", b2))
    return e.op("divide", sinh, denominator), e.op("divide", e.op("sine", b2), denominator)


def _polar(e: _Emit, x):
    a, b = e.parts(x)
    return e.op("sqrt", e.op("add", e.op("multiply", a, a), e.op("multiply", b, b))), e.op("atan2", b, a)


def _from_polar(e: _Emit, radius, angle):
    return e.op("multiply", radius, e.op("cosine", angle)), e.op("multiply", radius, e.op("sine", angle))


def _log(e: _Emit, x):  # log z = log |z| + (arg z)i
    radius, angle = _polar(e, x)
    return e.op("log", radius), angle


def _root(e: _Emit, x, degree: float):  # the principal root: |z|^(1/n) e^(i arg z / n)
    radius, angle = _polar(e, x)
    exponent = e.const(1.0 / degree)
    return _from_polar(e, e.op("power", radius, exponent), e.op("multiply", angle, exponent))


def _sqrt(e: _Emit, x):
    return _root(e, x, 2.0)


def _cbrt(e: _Emit, x):
    return _root(e, x, 3.0)


def _complex(e: _Emit, parts) -> SSAValue:
    return e.op("complex", *parts, type_=e.anchor.results[0].type)


def _rsqrt(e: _Emit, x):  # 1 / sqrt z, in polar form: inf at 0 as the spec's division gives
    return _root(e, x, -2.0)


def _power(e: _Emit, x, y):  # x^y = e^(y log x)
    return _exponential(e, _complex(e, _multiply(e, y, _complex(e, _log(e, x)))))


def _exponential_minus_one(e: _Emit, x):
    real, imag = _exponential(e, x)
    return e.op("subtract", real, e.const(1.0)), imag


def _log_plus_one(e: _Emit, x):
    a, b = e.parts(x)
    return _log(e, _complex(e, (e.op("add", a, e.const(1.0)), b)))


def _logistic(e: _Emit, x):  # 1 / (1 + e^-z)
    real, imag = _exponential(e, _complex(e, _negate(e, x)))
    one = _complex(e, (e.const(1.0), e.const(0.0)))
    return _divide(e, one, _complex(e, (e.op("add", real, e.const(1.0)), imag)))


def _sign(e: _Emit, x):  # z / |z|, and 0 at 0 (NaN parts stay NaN through the division)
    a, b = e.parts(x)
    radius = _abs(e, x)
    zero = e.const(0.0)
    safe = e.select_where("EQ", radius, zero, e.const(1.0), radius)
    return e.op("divide", a, safe), e.op("divide", b, safe)


def _compare(e: _Emit, x, y):
    return _ordered(e, e.anchor.properties["comparison_direction"].data, x, y)


def _ordered(e: _Emit, direction: str, x, y):
    """Complex values compare lexicographically, real parts first (the spec's order; EQ/NE part by part)."""
    (a, b), (c, d) = e.parts(x), e.parts(y)
    if direction in ("EQ", "NE"):
        join = "and" if direction == "EQ" else "or"
        return e.op(join, e.compare(direction, a, c), e.compare(direction, b, d), type_=e.mask)
    strict = direction[0] + "T"  # GE -> GT, LE -> LT: decided by the real parts when they differ
    tie = e.op("and", e.compare("EQ", a, c), e.compare(direction, b, d), type_=e.mask)
    return e.op("or", e.compare(strict, a, c), tie, type_=e.mask)


def _extremum(direction: str):
    def pick(e: _Emit, x, y):
        """The lexicographically greater (GE) or smaller (LE) operand, part by part."""
        keep = _ordered(e, direction, x, y)
        return tuple(e.op("select", keep, p, q) for p, q in zip(e.parts(x), e.parts(y)))
    return pick


def _convert(e: _Emit, x):
    """To complex: each part converted (a real operand is the real part, with 0i); from complex: its real part."""
    parts = e.parts(x) if is_complex(x) else (x, None)
    if not is_complex(e.anchor.results[0]):
        return e.op("convert", parts[0], type_=e.anchor.results[0].type)
    real = e.op("convert", parts[0])
    return real, e.op("convert", parts[1]) if parts[1] is not None else e.const(0.0)


def _iota(e: _Emit):
    iota = shlo.OPS["iota"].create(result_types=[e.part], properties=dict(e.anchor.properties))
    Rewriter.insert_op(iota, InsertPoint.before(e.anchor))
    return iota.results[0], e.const(0.0)


# ops making complex values from others, or real values from complex ones, whatever their operands
CONVERSIONS: dict[str, Callable] = {"stablehlo.convert": _convert, "stablehlo.iota": _iota}

EXPANSIONS: dict[str, Callable] = {"stablehlo.add": _add, "stablehlo.subtract": _subtract,
                                   "stablehlo.negate": _negate, "stablehlo.multiply": _multiply,
                                   "stablehlo.divide": _divide, "stablehlo.exponential": _exponential,
                                   "stablehlo.abs": _abs, "stablehlo.sine": _sine, "stablehlo.cosine": _cosine,
                                   "stablehlo.tanh": _tanh, "stablehlo.log": _log, "stablehlo.sqrt": _sqrt,
                                   "stablehlo.cbrt": _cbrt, "stablehlo.rsqrt": _rsqrt, "stablehlo.power": _power,
                                   "stablehlo.exponential_minus_one": _exponential_minus_one,
                                   "stablehlo.log_plus_one": _log_plus_one, "stablehlo.logistic": _logistic,
                                   "stablehlo.sign": _sign, "stablehlo.compare": _compare,
                                   "stablehlo.maximum": _extremum("GE"), "stablehlo.minimum": _extremum("LE")}
# elementwise ops whose complex form has no rule above (their operands and result share the complex type)
_ELEMENTWISE = frozenset(f"stablehlo.{n}" for n in (*shlo.UNARY, *shlo.BINARY, "compare") if not n.endswith("_"))


def is_complex(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType) and isinstance(value.type.element_type, ComplexType)


def _part_type(value: SSAValue) -> TensorType:
    return TensorType(value.type.element_type.element_type, value.type.get_shape())


@dataclass(frozen=True)
class StablehloComplexMathExpanderPass(ModulePass):
    """Expand elementwise complex math into real-valued StableHLO ops."""

    name: ClassVar[str] = "stablehlo-complex-math-expander"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            touches = any(is_complex(v) for v in (*op.operands, *op.results))
            if op.name in CONVERSIONS and touches:
                expand = CONVERSIONS[op.name]
            elif not op.operands or not is_complex(op.operands[0]) or op.name not in _ELEMENTWISE:
                continue
            else:
                expand = EXPANSIONS.get(op.name)
            if expand is None:
                raise PassFailure(op, f"'{op.name}' op on complex values is not supported (supported: "
                                      f"{', '.join(sorted(n.split('.')[1] for n in EXPANSIONS))})")
            e = _Emit(op)
            parts = expand(e, *op.operands)
            value = _complex(e, parts) if isinstance(parts, tuple) else parts
            op.results[0].replace_all_uses_with(value)
            Rewriter.erase_op(op)
