"""`d2m.embedding`: the data-movement lookup of an embedding table's rows by index, in a generic's region (tensor
form, as `--ttir-to-d2m` writes it): `%r = d2m.embedding %indices, %weight, %output<numIndices, embeddingDim>
{indicesShape = array<i64: ...>} : I, W, O -> R`. Output row k is the table's row `indices[k]` (the indices read
in row-major order over `indicesShape`); the data-movement kernel reads each index and NoC-reads that row."""

from __future__ import annotations

import math
from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType, i64
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class EmbeddingOp(IRDLOperation):
    """Rows of `weight` gathered by `indices` into `output` (see the module doc)."""

    name = "d2m.embedding"
    indices = operand_def(TensorType)
    weight = operand_def(TensorType)
    output = operand_def(TensorType)
    numIndices = prop_def(IntegerAttr)  # noqa: N815 - upstream's property names
    embeddingDim = prop_def(IntegerAttr)  # noqa: N815
    indicesShape = prop_def(DenseArrayBase)  # noqa: N815
    result = result_def(TensorType)
    PROPERTIES: ClassVar[tuple[str, ...]] = ("indicesShape",)

    @classmethod
    def parse(cls, parser: Parser) -> "EmbeddingOp":
        names = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            names.append(parser.parse_unresolved_operand())
        with parser.in_angle_brackets():
            count = parser.parse_integer()
            parser.parse_punctuation(",")
            width = parser.parse_integer()
        attributes = parser.parse_optional_attr_dict()
        properties = {k: attributes.pop(k) for k in cls.PROPERTIES if k in attributes}
        parser.parse_punctuation(":")
        position = parser.pos
        types_ = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation("->")
        result = parser.parse_type()
        return cls.create(operands=parser.resolve_operands(names, types_, position), result_types=[result],
                          attributes=attributes, properties={**properties, "numIndices": IntegerAttr(count, i64),
                                                             "embeddingDim": IntegerAttr(width, i64)})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.indices, self.weight, self.output], printer.print_operand)
        printer.print_string(f"<{self.numIndices.value.data}, {self.embeddingDim.value.data}>")
        printer.print_op_attributes({"indicesShape": self.indicesShape, **self.attributes})
        printer.print_string(" : ")
        printer.print_list(self.operand_types, printer.print_attribute)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.result.type != self.output.type:
            raise VerifyException(f"'{self.name}' op result type must match the output operand's type")
        if math.prod(self.indicesShape.get_values()) != self.numIndices.value.data:
            raise VerifyException(f"'{self.name}' op numIndices must be the number of elements of indicesShape")


EMBEDDING_OPS = [EmbeddingOp]
