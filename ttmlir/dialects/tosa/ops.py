"""The TOSA dialect (MLIR's `tosa`, TOSA 1.0), as TFLite and other MLIR front ends hand models to tt-mlir.

Every op is one row of `OPS`: its operands (a trailing `*` takes any number), its inherent attributes with
their kinds (a trailing `?` marks one that may be left out) and the verifier family that checks it. All ops but
`tosa.const` read and print MLIR's TOSA syntax, `tosa.add %a, %b {attrs} : (T, T) -> R`; the generic form reads
for every op. Inherent attributes are kept as properties and printed in the attribute dictionary, as MLIR's
TOSA printer writes them; any other attribute stays a discardable one.

Why not xDSL's `tosa`: it has a score of the ~60 ops, its matmul refuses batches other than 1, and its
messages are not MLIR's; its NaN-mode attribute is reused here.
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (BoolAttr, DenseArrayBase, DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr,
                                   IntegerType, StringAttr, TypeAttribute)
from xdsl.dialects.tosa import NanModeAttr
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import (IRDLOperation, irdl_op_definition, opt_prop_def, traits_def,
                       var_operand_def, var_result_def)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects.tosa.types import ShapeType


# attribute kinds: the check and MLIR's description of the constraint
def _is_int(width: int):
    return lambda a: isinstance(a, IntegerAttr) and isinstance(a.type, IntegerType) and a.type.width.data == width


def _is_array(width: int):
    return lambda a: isinstance(a, DenseArrayBase) and isinstance(a.elt_type, IntegerType) and \
        a.elt_type.width.data == width


ATTR_KINDS = {
    "i32": (_is_int(32), "32-bit signless integer attribute"),
    "i64[]": (_is_array(64), "i64 dense array attribute"),
    "i32[]": (_is_array(32), "i32 dense array attribute"),
    "number": (lambda a: isinstance(a, (IntegerAttr, FloatAttr)), "integer or floating point attribute"),
    "dense": (lambda a: isinstance(a, DenseIntOrFPElementsAttr), "constant vector/tensor attribute"),
    "bool": (lambda a: isinstance(a, BoolAttr) or (isinstance(a, IntegerAttr) and a.type == IntegerType(1)),
             "bool attribute"),
    "type": (lambda a: isinstance(a, TypeAttribute), "type attribute"),
    "nan_mode": (lambda a: isinstance(a, NanModeAttr) or isinstance(a, StringAttr) and a.data in ("PROPAGATE", "IGNORE"),
                 "Supported NaN propagation strategies"),
}


@dataclass(frozen=True)
class Row:
    name: str
    operands: tuple[str, ...]
    attrs: tuple[tuple[str, str, bool], ...]  # (name, kind, required)
    family: str  # the verifier in `ttmlir.dialects.tosa.verify` that checks it
    generic: bool = False  # printed in the generic form (MLIR gives tosa.const no custom syntax)


def _row(name: str, operands: str, attrs: str = "", family: str = "none", generic: bool = False) -> Row:
    parsed = []
    for item in attrs.split():
        attr, kind = item.split(":")
        parsed.append((attr.rstrip("?"), kind, not attr.endswith("?")))
    return Row(name, tuple(operands.split()), tuple(parsed), family, generic)


UNARY = "abs bitwise_not ceil clz cos erf exp floor log logical_not reciprocal rsqrt sigmoid sin tanh".split()
BINARY = ("add sub maximum minimum pow bitwise_and bitwise_or bitwise_xor logical_and logical_or logical_xor "
          "logical_left_shift logical_right_shift intdiv").split()
COMPARE = "equal greater greater_equal".split()

OPS: tuple[Row, ...] = (
    *(_row(n, "input1", family="unary") for n in UNARY),
    *(_row(n, "input1 input2", family="binary") for n in BINARY),
    *(_row(n, "input1 input2", family="compare") for n in COMPARE),
    _row("arithmetic_right_shift", "input1 input2", "round:bool", "binary"),
    _row("mul", "input1 input2 shift", family="mul"),
    _row("negate", "input1 input1_zp output_zp", family="negate"),
    _row("select", "input1 input2 input3", family="select"),
    _row("cast", "input", family="cast"),
    _row("clamp", "input", "min_val:number max_val:number nan_mode?:nan_mode", "clamp"),
    _row("const", "", "values:dense", "const", generic=True),
    _row("const_shape", "", "values:dense", "const_shape"),
    _row("reshape", "input1 shape", family="reshape"),
    _row("transpose", "input1", "perms:i32[]", "transpose"),
    _row("tile", "input1 multiples", family="tile"),
    _row("concat", "input1*", "axis:i32", "concat"),
    _row("pad", "input1 padding pad_const", family="pad"),
    _row("slice", "input1 start size", family="slice"),
    *(_row(f"reduce_{n}", "input", "axis:i32" + (" nan_mode?:nan_mode" if n in ("max", "min") else ""), "reduce")
      for n in ("all", "any", "max", "min", "product", "sum")),
    _row("argmax", "input", "axis:i32 nan_mode?:nan_mode", "argmax"),
    _row("matmul", "a b a_zp b_zp", family="matmul"),
    _row("max_pool2d", "input", "kernel:i64[] stride:i64[] pad:i64[] nan_mode?:nan_mode", "pool"),
    _row("avg_pool2d", "input input_zp output_zp", "kernel:i64[] stride:i64[] pad:i64[] acc_type:type", "pool"),
    _row("conv2d", "input weight bias input_zp weight_zp",
         "pad:i64[] stride:i64[] dilation:i64[] acc_type:type local_bound?:bool", "conv2d"),
)


class TosaOp(IRDLOperation):
    """A TOSA op built from its row; `verify.FAMILIES[row.family]` checks its types."""

    ROW: ClassVar[Row]

    operand_list = var_operand_def()
    result_list = var_result_def()
    traits = traits_def(Pure())

    def attr(self, name: str) -> Attribute | None:
        return self.properties.get(name)

    def value(self, name: str):
        """The operand named `name` in the row (`input1`, `shift`, ...)."""
        return self.operands[self.ROW.operands.index(name)]

    def error(self, message: str) -> VerifyException:
        return VerifyException(f"'{self.name}' op {message}")

    @classmethod
    def create(cls, *, operands=(), result_types=(), properties=None, attributes=None, **rest):
        # inherent attributes written in the generic form's `{...}` dictionary are properties, as MLIR reads them
        properties, attributes = dict(properties or {}), dict(attributes or {})
        for key in [k for k in attributes if k in {name for name, _, _ in cls.ROW.attrs}]:
            properties[key] = attributes.pop(key)
        return super().create(operands=operands, result_types=result_types, properties=properties,
                              attributes=attributes, **rest)

    def verify_(self) -> None:
        from ttmlir.dialects.tosa.verify import verify
        row = self.ROW
        if "quantization_info" in self.attributes:
            raise self.error("has a pre-1.0 quantization_info, which TOSA 1.0 has no form for (its zero points "
                             "are operands)")
        variadic = row.operands and row.operands[-1].endswith("*")
        if not variadic and len(self.operands) != len(row.operands):
            raise self.error(f"expected {len(row.operands)} operands, but found {len(self.operands)}")
        if len(self.results) != 1:
            raise self.error(f"requires one result, but found {len(self.results)}")
        for name, kind, required in row.attrs:
            value = self.properties.get(name)
            if value is None:
                if required:
                    raise self.error(f"requires attribute '{name}'")
                continue
            check, describe = ATTR_KINDS[kind]
            if not check(value):
                raise self.error(f"attribute '{name}' failed to satisfy constraint: {describe}")
        verify(self)


class TosaPrettyOp(TosaOp):
    """`tosa.<op> operands attr-dict : functional-type(operands, results)`, the syntax of every TOSA op but const."""

    @classmethod
    def parse(cls, parser: Parser) -> "TosaOp":
        names = parser.parse_optional_undelimited_comma_separated_list(parser.parse_optional_unresolved_operand,
                                                                        parser.parse_unresolved_operand) or []
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        function = parser.parse_function_type()
        if len(function.inputs.data) != len(names):
            parser.raise_error(f"{len(names)} operands present, but expected {len(function.inputs.data)}",
                               at_position=pos)
        operands = [parser.resolve_operand(n, t) for n, t in zip(names, function.inputs.data)]
        return cls.create(operands=operands, result_types=list(function.outputs.data),
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        merged = {**self.properties, **self.attributes}
        if merged:
            printer.print_string(" ")
            printer.print_attr_dict(merged)
        printer.print_string(" : (")
        printer.print_list([o.type for o in self.operands], printer.print_attribute)
        printer.print_string(") -> ")
        results = [r.type for r in self.results]
        if len(results) == 1:
            printer.print_attribute(results[0])
        else:
            printer.print_string("(")
            printer.print_list(results, printer.print_attribute)
            printer.print_string(")")


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) + "Op"


def _op_class(row: Row) -> type[TosaOp]:
    base = TosaOp if row.generic else TosaPrettyOp  # generic: no custom syntax, as MLIR gives tosa.const none
    fields = {"name": f"tosa.{row.name}", **{attr: opt_prop_def(Attribute) for attr, _, _ in row.attrs}}
    cls = types.new_class(_camel(row.name), (base,), exec_body=lambda ns: ns.update(fields))
    cls.__module__ = __name__
    cls = irdl_op_definition(cls)
    cls.ROW = row
    return cls


TOSA_OP_CLASSES: dict[str, type[TosaOp]] = {row.name: _op_class(row) for row in OPS}

TOSA = Dialect("tosa", list(TOSA_OP_CLASSES.values()), [ShapeType, NanModeAttr])

