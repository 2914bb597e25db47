"""The StableHLO dialect (openxla/stablehlo), as JAX and tt-xla hand it to tt-mlir.

Every op is built from a row of `OPS`: its assembly format (how `stablehlo.<op>` reads and prints in the
StableHLO project's pretty syntax; ops without one use the generic form), the inherent attributes it
keeps as properties, and whether it is pure. The generic form (`"stablehlo.add"(%a, %b) : (..) -> ..`)
reads for every op. Shapes are checked by per-op rules in `ttmlir.dialects.stablehlo_verify`.
"""

from __future__ import annotations

import types
from typing import ClassVar

from xdsl.dialects.builtin import IndexType, IntegerType, TensorType
from xdsl.ir import Attribute, Dialect, Operation
from xdsl.irdl import (IRDLOperation, irdl_op_definition, opt_prop_def, traits_def, var_operand_def, var_region_def,
                       var_result_def)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects.stablehlo_attrs import *  # noqa: F401,F403 - the dialect's attributes are stablehlo.<Name> too
from ttmlir.dialects.stablehlo_attrs import ATTRIBUTES
from ttmlir.dialects.stablehlo_formats import OperandFormats
from ttmlir.dialects.stablehlo_region_formats import RegionFormats
from ttmlir.dialects.stablehlo_syntax import Clause, parse_clauses
from ttmlir.dialects.stablehlo_table import BINARY, EFFECTFUL, REDUCE_BODY_NAMES, ROWS, UNARY  # noqa: F401 - the families are shlo.<NAME> too
from ttmlir.dialects.stablehlo_verify import verify


class StableHLOOp(RegionFormats, OperandFormats, IRDLOperation):
    """Base of every table-built stablehlo op."""

    FORMAT: ClassVar[str] = "generic"
    CLAUSES: ClassVar[tuple[Clause, ...]] = ()
    PROPS: ClassVar[frozenset[str]] = frozenset()

    args = var_operand_def()
    outs = var_result_def()
    regs = var_region_def()

    def attr(self, name: str) -> Attribute | None:
        found = self.properties.get(name)  # not `or`: a zero IntegerAttr is falsy
        return found if found is not None else self.attributes.get(name)

    @classmethod
    def create(cls, *, operands=(), result_types=(), properties=None, attributes=None, successors=(), regions=(),
               **rest):
        # inherent attributes written in the generic form's `{...}` dictionary are properties, as MLIR reads them
        properties, attributes = dict(properties or {}), dict(attributes or {})
        for key in [k for k in attributes if k in cls.PROPS]:
            properties[key] = attributes.pop(key)
        return super().create(operands=operands, result_types=result_types, properties=properties,
                              attributes=attributes, successors=successors, regions=regions, **rest)

    def error(self, message: str) -> VerifyException:
        return VerifyException(f"'{self.name}' op {message}")

    def asm_result_name(self) -> str | None:
        """A constant's result prints as `%cst` (floats) or `%c` (integers), as StableHLO names them."""
        if self.FORMAT != "constant" or not isinstance(self.results[0].type, TensorType):
            return None
        return "c" if isinstance(self.results[0].type.element_type, (IntegerType, IndexType)) else "cst"

    def verify_(self) -> None:
        verify(self)

    # -- pretty formats -------------------------------------------------------------------------------------
    @classmethod
    def parse(cls, parser: Parser):
        if cls.FORMAT == "generic":
            parser.raise_error(f"custom op '{cls.name}' has no custom assembly form")
        return getattr(cls, "_parse_" + cls.FORMAT)(parser)

    def print(self, printer: Printer) -> None:
        getattr(self, "_print_" + self.FORMAT)(printer)



def _op_class(name: str, fmt: str, clauses: str, props: str, dialect: str = "stablehlo") -> type[StableHLOOp]:
    parsed = parse_clauses(clauses)
    traits = [] if name in EFFECTFUL else [Pure()]
    if name == "return":
        traits.append(IsTerminator())
    inherent = frozenset(props.split()) | {c.prop for c in parsed}
    body = {"name": f"{dialect}.{name}", "traits": traits_def(*traits),
            "__doc__": f"{dialect}.{name}: the {dialect} op of that name.",
            **{f"prop_{p}": opt_prop_def(Attribute, prop_name=p) for p in sorted(inherent)}}
    if fmt == "generic":
        body["print"] = Operation.print  # printed in the generic form
    camel = (dialect.capitalize() if dialect != "stablehlo" else "") + \
        "".join(p.capitalize() for p in name.split("_")) + "Op"
    cls = types.new_class(camel, (StableHLOOp,), exec_body=lambda ns: ns.update(body))
    cls.__module__ = __name__
    cls = irdl_op_definition(cls)
    cls.FORMAT, cls.CLAUSES, cls.PROPS = fmt, parsed, inherent
    return cls


OP_ROWS = {f"stablehlo.{r[0]}": r for r in ROWS}
OPS: dict[str, type[StableHLOOp]] = {r[0]: _op_class(*r) for r in ROWS}
REDUCE_BODY = {f"stablehlo.{n}": OPS[n] for n in REDUCE_BODY_NAMES}
ReturnOp = OPS["return"]
globals().update({cls.__name__: cls for cls in OPS.values()})

StableHLO = Dialect("stablehlo", list(OPS.values()), ATTRIBUTES)
