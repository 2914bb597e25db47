"""D2M ops of an arange inside a generic: `d2m.arange_block` (a block's tiles hold start + step * i for each
element's linear index i, `--d2m-decompose-arange` writes it out), `d2m.fill_arange_tile` (a tile holding its own
element indices 0..1023, the scratch tile the decomposition offsets)."""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, MemRefType, TensorType
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, prop_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer


@irdl_op_definition
class ArangeBlockOp(IRDLOperation):
    """`%r = "d2m.arange_block"(%index_tile, %out) <{colMajor = false, num_elements = 64 : i64, start = 0 : i64,
    step = 1 : i64}> : (T, U) -> U`: `out` filled with start + step * i, i each element's index in row-major (or
    column-major) order over the whole tensor the generic writes."""

    name = "d2m.arange_block"
    index_tile_tensor = operand_def(MemRefType | TensorType)
    output = operand_def(MemRefType | TensorType)
    num_elements = prop_def(IntegerAttr)
    start = prop_def(IntegerAttr)
    step = prop_def(IntegerAttr)
    colMajor = opt_prop_def(BoolAttr)
    result = result_def(MemRefType | TensorType)


@irdl_op_definition
class FillArangeTileOp(IRDLOperation):
    """`d2m.fill_arange_tile to %tile : memref<1x1x!ttcore.tile<32x32, f32>>`: the tile's elements are their own
    row-major indices."""

    name = "d2m.fill_arange_tile"
    output = operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> "FillArangeTileOp":
        parser.parse_keyword("to")
        name = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        t = parser.parse_type()
        return cls.create(operands=parser.resolve_operands([name], [t], position), attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" to ")
        printer.print_operand(self.output)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.output.type)


ARANGE_OPS = [ArangeBlockOp, FillArangeTileOp]
