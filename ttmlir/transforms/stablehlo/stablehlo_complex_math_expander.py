"""`--stablehlo-complex-math-expander`: elementwise math on complex tensors written with real arithmetic.

Each complex op becomes `stablehlo.real`/`stablehlo.imag` of its operands, real-valued ops on those parts and
a `stablehlo.complex` of the result's parts (or a real result, for `abs`). `--stablehlo-complex-data-type-
conversion` then takes the complex/real/imag ops apart, so a program computing with complex numbers reaches the
device as real tensors. An elementwise op on complex values with no rule here is refused, naming it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ComplexType, ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import stablehlo as shlo
from ttmlir.errors import PassFailure


class _Emit:
    """Builds real-valued stablehlo ops in front of `anchor`, all on the complex type's part type."""

    def __init__(self, anchor: Operation):
        self.anchor = anchor
        complex_type = anchor.operands[0].type
        self.part = TensorType(complex_type.element_type.element_type, complex_type.get_shape())

    def op(self, name: str, *operands: SSAValue, type_=None) -> SSAValue:
        new = shlo.OPS[name].create(operands=list(operands), result_types=[type_ or self.part])
        Rewriter.insert_op(new, InsertPoint.before(self.anchor))
        return new.results[0]

    def parts(self, value: SSAValue) -> tuple[SSAValue, SSAValue]:
        return self.op("real", value), self.op("imag", value)


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


EXPANSIONS: dict[str, Callable] = {"stablehlo.add": _add, "stablehlo.subtract": _subtract,
                                   "stablehlo.negate": _negate, "stablehlo.multiply": _multiply,
                                   "stablehlo.divide": _divide, "stablehlo.exponential": _exponential,
                                   "stablehlo.abs": _abs}
# elementwise ops whose complex form has no rule above (their operands and result share the complex type)
_ELEMENTWISE = frozenset(f"stablehlo.{n}" for n in (*shlo.UNARY, *shlo.BINARY) if not n.endswith("_"))


def is_complex(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType) and isinstance(value.type.element_type, ComplexType)


@dataclass(frozen=True)
class StablehloComplexMathExpanderPass(ModulePass):
    """Expand elementwise complex math into real-valued StableHLO ops."""

    name: ClassVar[str] = "stablehlo-complex-math-expander"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if not op.operands or not is_complex(op.operands[0]) or op.name not in _ELEMENTWISE:
                continue
            expand = EXPANSIONS.get(op.name)
            if expand is None:
                raise PassFailure(op, f"'{op.name}' op on complex values is not supported (supported: "
                                      f"{', '.join(sorted(n.split('.')[1] for n in EXPANSIONS))})")
            e = _Emit(op)
            parts = expand(e, *op.operands)
            if isinstance(parts, tuple):
                value = e.op("complex", *parts, type_=op.results[0].type)
            else:
                value = parts
            op.results[0].replace_all_uses_with(value)
            Rewriter.erase_op(op)
