"""D2M ops naming buffers a program is given besides its operands: a CB that lives in an operand's own shard
(`d2m.operand_alias`) and semaphores that outlive one program (`d2m.create_global_semaphore` over an L1 buffer,
`d2m.reset_global_semaphore`) and a program's own (`d2m.create_local_semaphore`). `--convert-d2m-to-ttnn` turns
them into the CB's tensor binding, the program's semaphores and TTNN's global semaphore ops."""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IntegerAttr, MemRefType, TensorType
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.irdl import (IRDLOperation, ParsePropInAttrDict, irdl_op_definition, operand_def, opt_prop_def,
                       opt_result_def, prop_def, result_def)

from ttmlir.dialects.d2m_cb import GlobalSemaphoreType, LocalSemaphoreType


@irdl_op_definition
class OperandAliasOp(IRDLOperation):
    """An operand's local shard seen as a CB (the CB reads and writes the operand's own L1):
    `%cb = d2m.operand_alias %buffer : memref<...> -> memref<..., #ttcore.cb_layout<...>, ...>`."""

    name = "d2m.operand_alias"
    memref = operand_def(MemRefType)
    aliasedBuffer = result_def(MemRefType)
    assembly_format = "$memref attr-dict `:` type($memref) `->` type($aliasedBuffer)"


@irdl_op_definition
class CreateGlobalSemaphoreOp(IRDLOperation):
    """A semaphore per core of a grid, held in an L1 buffer of that grid:
    `%s = d2m.create_global_semaphore(%buffer) {value = 0 : ui32} : memref<...> -> !d2m.global_semaphore`."""

    name = "d2m.create_global_semaphore"
    input = operand_def(MemRefType | TensorType)
    value = opt_prop_def(IntegerAttr)
    result = result_def(GlobalSemaphoreType)
    assembly_format = "`(` $input `)` attr-dict `:` type($input) `->` type($result)"
    irdl_options = (ParsePropInAttrDict(),)


@irdl_op_definition
class ResetGlobalSemaphoreOp(IRDLOperation):
    """A global semaphore set back to `value` on every core: `d2m.reset_global_semaphore(%s) {value = 0 : ui32} :
    !d2m.global_semaphore`."""

    name = "d2m.reset_global_semaphore"
    semaphore = operand_def(GlobalSemaphoreType)
    value = prop_def(IntegerAttr)
    assembly_format = "`(` $semaphore `)` attr-dict `:` type($semaphore)"
    irdl_options = (ParsePropInAttrDict(),)


@irdl_op_definition
class CreateLocalSemaphoreOp(IRDLOperation):
    """A semaphore in each core's L1 for one program, starting at `initialValue`:
    `%s = d2m.create_local_semaphore <{initialValue = 0 : ui32}> -> !d2m.local_semaphore`."""

    name = "d2m.create_local_semaphore"
    initialValue = prop_def(IntegerAttr)
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


@irdl_op_definition
class LocalCopyOp(IRDLOperation):
    """A copy between two blocks in a core's L1, `indexing_maps` saying which source element each destination
    element reads (the destination's shape is the iteration domain): `%r = d2m.local_copy %src, %dst
    indexing_maps = [#src, #dst] : tensor<...>, tensor<...> -> tensor<...>`; on memrefs it writes `%dst` in place
    and has no result."""

    name = "d2m.local_copy"
    src = operand_def(MemRefType | TensorType)
    dst = operand_def(MemRefType | TensorType)
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    result = opt_result_def(MemRefType | TensorType)

    @classmethod
    def parse(cls, parser: Parser) -> "LocalCopyOp":
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        names.append(parser.parse_unresolved_operand())
        parser.parse_keyword("indexing_maps")
        parser.parse_punctuation("=")
        maps = parser.parse_attribute()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        types = [parser.parse_type()]
        parser.parse_punctuation(",")
        types.append(parser.parse_type())
        results = [parser.parse_type()] if parser.parse_optional_punctuation("->") else []
        return cls.create(operands=parser.resolve_operands(names, types, position), result_types=results,
                          properties={"indexing_maps": maps}, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(" indexing_maps = ")
        printer.print_attribute(self.indexing_maps)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list([v.type for v in self.operands], printer.print_attribute)
        if self.result is not None:
            printer.print_string(" -> ")
            printer.print_attribute(self.result.type)


BUFFER_OPS = [LocalCopyOp, OperandAliasOp, CreateGlobalSemaphoreOp, ResetGlobalSemaphoreOp, CreateLocalSemaphoreOp]
