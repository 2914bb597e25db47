"""How a generic's region reaches its arguments once its regions become kernels: `%a = d2m.get_arg(2)
resolution_stage =  runtime : !d2m.global_semaphore` is the generic's operand 2 (an input, an output or an additional
argument), and `resolution_stage` says whether the kernel gets it as a compile-time argument (`compile`, as circular
buffers are) or a runtime argument (`runtime`: buffers' addresses, semaphores, scalars). MLIR prints the stage after
two spaces (`=  compile`); it is written so here too."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Data
from xdsl.irdl import IRDLOperation, irdl_attr_definition, irdl_op_definition, opt_prop_def, prop_def, result_def, \
    traits_def
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


@irdl_attr_definition
class ResolutionStageAttr(Data[str]):
    """When a kernel argument is known: `#d2m<resolution_stage compile>` or `runtime`."""

    name = "d2m.resolution_stage"
    VALUES: ClassVar[tuple[str, ...]] = ("compile", "runtime")
    opaque_syntax: ClassVar[bool] = True

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> str:
        return parse_stage(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(self.data)


def parse_stage(parser: AttrParser) -> str:
    position = parser.pos
    word = parser.parse_identifier()
    if word not in ResolutionStageAttr.VALUES:
        parser.raise_error(f"expected one of {', '.join(ResolutionStageAttr.VALUES)} for a resolution stage, got "
                           f"{word}", position)
    return word


def parse_optional_stage(parser: Parser) -> dict:
    """` resolution_stage = compile` after an op's index, as a property dictionary (empty if absent)."""
    if parser.parse_optional_keyword("resolution_stage") is None:
        return {}
    parser.parse_punctuation("=")
    return {"resolution_stage": ResolutionStageAttr(parse_stage(parser))}


def print_stage(printer: Printer, stage: ResolutionStageAttr | None) -> None:
    if stage is not None:
        printer.print_string(f" resolution_stage =  {stage.data}")


@irdl_op_definition
class GetArgOp(IRDLOperation):
    """The enclosing generic's operand `operand_index`, as its kernels see it."""

    name = "d2m.get_arg"
    operand_index = prop_def(IntegerAttr)
    resolution_stage = opt_prop_def(ResolutionStageAttr)
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> "GetArgOp":
        with parser.in_parens():
            index = parser.parse_integer()
        properties = {"operand_index": IntegerAttr(index, i64), **parse_optional_stage(parser)}
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        return cls.create(properties=properties, attributes=attributes, result_types=[parser.parse_type()])

    def print(self, printer: Printer) -> None:
        printer.print_string(f"({self.operand_index.value.data})")
        print_stage(printer, self.resolution_stage)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.operand_index.value.data < 0:
            raise VerifyException(f"'{self.name}' op attribute 'operand_index' failed to satisfy constraint: 64-bit "
                                  f"signless integer attribute whose minimum value is 0")


ARG_OPS = [GetArgOp]
ARG_ATTRS = [ResolutionStageAttr]
