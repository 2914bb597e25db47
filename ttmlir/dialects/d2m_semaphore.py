"""D2M's semaphores made on the host side of a generic: `%s = d2m.create_local_semaphore <{initialValue = 0 : ui32}>
-> !d2m.local_semaphore` is a semaphore in the L1 of each core of the generic that takes it as an additional
argument, starting at its initial value; a global semaphore lives in a buffer of its own across programs, made by
`d2m.create_global_semaphore` and reset by `d2m.reset_global_semaphore`."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, IntegerType, MemRefType, Signedness, TensorType
from xdsl.irdl import (IRDLOperation, ParsePropInAttrDict, irdl_op_definition, operand_def, opt_prop_def, prop_def,
                       result_def)
from xdsl.parser import Parser
from xdsl.printer import Printer

from ttmlir.dialects.d2m_cb import GlobalSemaphoreType, LocalSemaphoreType

UI32 = IntegerType(32, Signedness.UNSIGNED)


@irdl_op_definition
class CreateLocalSemaphoreOp(IRDLOperation):
    name = "d2m.create_local_semaphore"
    initialValue = prop_def(IntegerAttr[IntegerType])  # noqa: N815 - upstream's property name
    result = result_def(LocalSemaphoreType)

    @classmethod
    def parse(cls, parser: Parser) -> "CreateLocalSemaphoreOp":
        properties = parser.parse_optional_properties_dict()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation("->")
        return cls.create(properties=properties, attributes=attributes, result_types=[parser.parse_type()])

    def print(self, printer: Printer) -> None:
        printer.print_string(" <")
        printer.print_attr_dict(self.properties)
        printer.print_string(">")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    @staticmethod
    def get(initial: int = 0) -> "CreateLocalSemaphoreOp":
        return CreateLocalSemaphoreOp.create(properties={"initialValue": IntegerAttr(initial, UI32)},
                                             result_types=[LocalSemaphoreType()])


@irdl_op_definition
class CreateGlobalSemaphoreOp(IRDLOperation):
    """A semaphore across the cores of a buffer of one word per core, living past one program:
    `%s = d2m.create_global_semaphore(%buf) {value = 0 : ui32} : memref<8x8x1x1xui32, ...> -> !d2m.global_semaphore`."""

    name = "d2m.create_global_semaphore"
    input = operand_def(MemRefType | TensorType)
    value = opt_prop_def(IntegerAttr[IntegerType])
    result = result_def(GlobalSemaphoreType)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "`(` $input `)` attr-dict `:` type($input) `->` type($result)"


@irdl_op_definition
class ResetGlobalSemaphoreOp(IRDLOperation):
    """The semaphore set back to a value (blocks until set): `d2m.reset_global_semaphore(%s) {value = 0 : ui32} :
    !d2m.global_semaphore`."""

    name = "d2m.reset_global_semaphore"
    semaphore = operand_def(GlobalSemaphoreType)
    value = prop_def(IntegerAttr[IntegerType])
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "`(` $semaphore `)` attr-dict `:` type($semaphore)"


SEMAPHORE_OPS = [CreateLocalSemaphoreOp, CreateGlobalSemaphoreOp, ResetGlobalSemaphoreOp]
