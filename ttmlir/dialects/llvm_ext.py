"""xDSL's `llvm` dialect as the CPU module's LLVM lowering writes it: a struct type printed as MLIR prints it (by
`TTPrinter`)
(`!llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>`, its members in the LLVM dialect's short
spelling), and the casts and intrinsics MLIR's arith-to-llvm / math-to-llvm emit that xDSL 0.74 lacks
(`llvm.fptosi`, `llvm.fptoui`, `llvm.uitofp`, `llvm.intr.maximum`, `llvm.intr.minimum`)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import AnyFloatConstr
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (ParsePropInAttrDict, VarConstraint, irdl_op_definition, operand_def,
                       prop_def, result_def, traits_def)
from xdsl.printer import Printer
from xdsl.traits import Pure


def print_nested(printer: Printer, t: Attribute) -> None:
    """A type inside an LLVM aggregate: `ptr`, `array<N x T>`, `struct<(...)>` without the `!llvm.` prefix."""
    if isinstance(t, xllvm.LLVMPointerType) and not getattr(t.addr_space, "data", 0):
        printer.print_string("ptr")
    elif isinstance(t, xllvm.LLVMArrayType):
        printer.print_string(f"array<{t.size.data} x ")
        print_nested(printer, t.type)
        printer.print_string(">")
    elif isinstance(t, xllvm.LLVMStructType):
        stream, printer.stream = printer.stream, __import__("io").StringIO()
        print_struct(printer, t)
        text, printer.stream = printer.stream.getvalue(), stream
        printer.print_string(text.removeprefix("!llvm."))
    else:
        printer.print_attribute(t)


def print_struct(printer: Printer, t: xllvm.LLVMStructType) -> None:
    """`!llvm.struct<(ptr, i64, array<2 x i64>)>`, as MLIR prints it (xDSL spells each member in full)."""
    printer.print_string("!llvm.struct<")
    if t.struct_name.data:
        printer.print_string_literal(t.struct_name.data)
        printer.print_string(", ")
    printer.print_string("(")
    for i, member in enumerate(t.types.data):
        if i:
            printer.print_string(", ")
        print_nested(printer, member)
    printer.print_string(")>")


def struct(types: list[Attribute]) -> xllvm.LLVMStructType:
    return xllvm.LLVMStructType.from_type_list(types)


@irdl_op_definition
class FPToSIOp(xllvm.GenericCastOp):
    name = "llvm.fptosi"


@irdl_op_definition
class FPToUIOp(xllvm.GenericCastOp):
    name = "llvm.fptoui"


@irdl_op_definition
class UIToFPOp(xllvm.GenericCastOp):
    name = "llvm.uitofp"


class _FloatBinaryIntrinsic(xllvm.IRDLOperation):
    T: ClassVar = VarConstraint("T", AnyFloatConstr)
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(xllvm.FastMathAttr, default_value=xllvm.FastMathAttr(None))
    assembly_format = "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure())

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type],
                         properties={"fastmathFlags": xllvm.FastMathAttr(None)})


@irdl_op_definition
class MaximumOp(_FloatBinaryIntrinsic):
    """The larger of two floats, NaN if either is (arith.maximumf)."""
    name = "llvm.intr.maximum"


@irdl_op_definition
class MinimumOp(_FloatBinaryIntrinsic):
    """The smaller of two floats, NaN if either is (arith.minimumf)."""
    name = "llvm.intr.minimum"


LLVM = Dialect("llvm", [*xllvm.LLVM.operations, FPToSIOp, FPToUIOp, UIToFPOp, MaximumOp, MinimumOp],
               list(xllvm.LLVM.attributes))
