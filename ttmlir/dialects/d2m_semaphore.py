"""D2M's semaphores made on the host side of a generic: `%s = d2m.create_local_semaphore <{initialValue = 0 : ui32}>
-> !d2m.local_semaphore` is a semaphore in the L1 of each core of the generic that takes it as an additional
argument, starting at its initial value."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, IntegerType, Signedness
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from ttmlir.dialects.d2m_cb import LocalSemaphoreType

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


SEMAPHORE_OPS = [CreateLocalSemaphoreOp]
