"""D2M's data movement at shard level, what `--d2m-lower-load-store-ops-to-dma` lowers loads and stores to, in
upstream's syntax:

- `%tx = d2m.dma_read %src[%i, %j], %dst, <0> : (S, D) -> !d2m.mem_tx<read>`: a shard of `src` at grid indices into
  a local buffer (`<n>` elements once fully indexed, 0 for a whole shard);
- `%tx = d2m.dma_write %src, %dst[%i] core[%c0, %c0] mcast[%c1, %c4], <0> : (S, D) -> !d2m.mem_tx<mcast_write>`:
  a local buffer to a remote shard, or multicast to a core rectangle;
- `d2m.dma_wait %tx : !d2m.mem_tx<read>`: the transfer has landed;
- `d2m.semaphore_set` / `d2m.semaphore_inc %sem, %v, core[%y, %x] mcast[%h, %w] : !d2m.local_semaphore`: a
  semaphore written here, on a remote core, or over a rectangle; `d2m.semaphore_wait %sem, %v reset %r : ...`: this
  core waits for its semaphore to reach a value (and resets it).

A transfer's `!d2m.mem_tx<kind>` says which barrier waits for it (read, write or mcast_write)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (AffineMapAttr, ArrayAttr, DenseArrayBase, IndexType, IntegerAttr, MemRefType,
                                   StringAttr, i32, i64)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (AttrSizedOperandSegments, IRDLOperation, irdl_attr_definition, irdl_op_definition,
                       operand_def, opt_operand_def, opt_prop_def, opt_result_def, param_def, prop_def, result_def, var_operand_def)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects.d2m_cb import CBType, GlobalSemaphoreType, LocalSemaphoreType

DMA_KINDS = ("read", "write", "mcast_write")


@irdl_attr_definition
class MemTxType(ParametrizedAttribute, TypeAttribute):
    """A DMA transfer in flight: `!d2m.mem_tx<read>` (`write`, `mcast_write`)."""

    name = "d2m.mem_tx"
    kind: StringAttr = param_def(StringAttr)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            position = parser.pos
            kind = parser.parse_identifier()
            if kind not in DMA_KINDS:
                parser.raise_error(f"expected one of {', '.join(DMA_KINDS)} for a DMA type, got {kind}", position)
        return [StringAttr(kind)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.kind.data}>")


def mem_tx(kind: str) -> MemTxType:
    return MemTxType(StringAttr(kind))


def _parse_group(parser: Parser, keyword: str | None) -> list[UnresolvedOperand]:
    """`keyword[%a, %b]` (or `[%a]` for no keyword) if present, else nothing."""
    if keyword is not None:
        if parser.parse_optional_keyword(keyword) is None:
            return []
        return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
    if parser._current_token.text != "[":
        return []
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)


def _print_group(printer: Printer, keyword: str, values, always: bool = False) -> None:
    if values or always:
        printer.print_string(f"{keyword}[")
        printer.print_list(values, printer.print_operand)
        printer.print_string("]")


def _segments(*groups) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, [len(g) for g in groups])


class _DMAOp(IRDLOperation):
    """The transfers' shared operands: `src[...]`, `dst[...]`, `<numElems>`, an optional TensorAccessor page map."""

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    src = operand_def()
    src_indices = var_operand_def(IndexType)
    dst = operand_def()
    dst_indices = var_operand_def(IndexType)
    numElems = prop_def(IntegerAttr)  # noqa: N815 - upstream's property name
    tensorAccessorPageMap = opt_prop_def(AffineMapAttr)  # noqa: N815
    result = result_def(MemTxType)
    PROPERTIES: ClassVar[tuple[str, ...]] = ("tensorAccessorPageMap",)
    # a read prints its source's (grid) indices even when there are none: `%src[]`
    ALWAYS_SRC_INDICES: ClassVar[bool] = False

    def asm_result_name(self) -> str:  # upstream's getAsmResultNames
        return "tx"

    @classmethod
    def parse(cls, parser: Parser):
        src = parser.parse_unresolved_operand()
        src_indices = _parse_group(parser, None)
        parser.parse_punctuation(",")
        dst = parser.parse_unresolved_operand()
        dst_indices = _parse_group(parser, None)
        extra = cls._parse_extra(parser)
        parser.parse_punctuation(",")
        with parser.in_angle_brackets():
            elems = parser.parse_integer()
        attributes = parser.parse_optional_attr_dict()
        properties = {k: attributes.pop(k) for k in cls.PROPERTIES if k in attributes}
        parser.parse_punctuation(":")
        position = parser.pos
        with parser.in_parens():
            src_type = parser.parse_type()
            parser.parse_punctuation(",")
            dst_type = parser.parse_type()
        parser.parse_punctuation("->")
        result = parser.parse_type()
        groups = [[src], src_indices, [dst], dst_indices, *extra]
        index = IndexType()
        types_ = [src_type, *[index] * len(src_indices), dst_type, *[index] * (sum(map(len, groups)) - 2 -
                                                                               len(src_indices))]
        operands = parser.resolve_operands([v for g in groups for v in g], types_, position)
        return cls.create(operands=operands, result_types=[result], attributes=attributes, properties={
            **properties, "numElems": IntegerAttr(elems, i64), "operandSegmentSizes": _segments(*groups)})

    @classmethod
    def _parse_extra(cls, parser: Parser) -> list[list[UnresolvedOperand]]:
        return []

    def _print_extra(self, printer: Printer) -> None:
        pass

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        _print_group(printer, "", self.src_indices, always=self.ALWAYS_SRC_INDICES)
        printer.print_string(", ")
        printer.print_operand(self.dst)
        _print_group(printer, "", self.dst_indices)
        self._print_extra(printer)
        printer.print_string(f", <{self.numElems.value.data}>")
        printer.print_op_attributes({**{k: v for k, v in self.properties.items() if k in self.PROPERTIES},
                                     **self.attributes})
        printer.print_string(" : (")
        printer.print_list([self.src.type, self.dst.type], printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class DMAReadOp(_DMAOp):
    name = "d2m.dma_read"
    ALWAYS_SRC_INDICES: ClassVar[bool] = True

    @staticmethod
    def get(src, src_indices, dst) -> "DMAReadOp":
        return DMAReadOp.create(operands=[src, *src_indices, dst], result_types=[mem_tx("read")], properties={
            "numElems": IntegerAttr(0, i64), "operandSegmentSizes": _segments([src], src_indices, [dst], [])})


@irdl_op_definition
class DMAWriteOp(_DMAOp):
    name = "d2m.dma_write"
    # all the operands again, in order: a subclass's own fields come first in IRDL's segment order
    src = operand_def()
    src_indices = var_operand_def(IndexType)
    dst = operand_def()
    dst_indices = var_operand_def(IndexType)
    mcast_start = var_operand_def(IndexType)
    mcast_shape = var_operand_def(IndexType)
    start_device = var_operand_def(IndexType)
    device_mcast_shape = var_operand_def(IndexType)

    @classmethod
    def _parse_extra(cls, parser: Parser) -> list[list[UnresolvedOperand]]:
        start = _parse_group(parser, "core")
        shape = []
        if start:
            parser.parse_keyword("mcast")
            shape = _parse_group(parser, None)
        return [start, shape, _parse_group(parser, "startDevice"), _parse_group(parser, "deviceMcastShape")]

    def _print_extra(self, printer: Printer) -> None:
        if self.mcast_start:
            _print_group(printer, " core", self.mcast_start)
            _print_group(printer, " mcast", self.mcast_shape, always=True)
        _print_group(printer, " startDevice", self.start_device)
        _print_group(printer, " deviceMcastShape", self.device_mcast_shape)

    @staticmethod
    def get(src, src_indices, dst, dst_indices, mcast_start=(), mcast_shape=()) -> "DMAWriteOp":
        kind = "mcast_write" if mcast_start else "write"
        groups = [[src], list(src_indices), [dst], list(dst_indices), list(mcast_start), list(mcast_shape), [], []]
        return DMAWriteOp.create(operands=[v for g in groups for v in g], result_types=[mem_tx(kind)], properties={
            "numElems": IntegerAttr(0, i64), "operandSegmentSizes": _segments(*groups)})

    def verify_(self) -> None:
        if len(self.mcast_start) != len(self.mcast_shape):
            raise VerifyException(f"'{self.name}' op core[...] and mcast[...] must have the same rank")


@irdl_op_definition
class DMAWaitOp(IRDLOperation):
    name = "d2m.dma_wait"
    mem_tx = operand_def(MemTxType)
    assembly_format = "$mem_tx attr-dict `:` type($mem_tx)"


class _SemaphoreUpdateOp(IRDLOperation):
    """`d2m.<op> %sem, %v[, core[...]] [mcast[...]] [startDevice[...]] [deviceMcastShape[...]] : type`."""

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    semaphore = operand_def(LocalSemaphoreType | GlobalSemaphoreType)
    value = operand_def(IndexType)
    dst_core_index = var_operand_def(IndexType)
    mcast_shape = var_operand_def(IndexType)
    start_device = var_operand_def(IndexType)
    device_mcast_shape = var_operand_def(IndexType)

    @classmethod
    def parse(cls, parser: Parser):
        semaphore = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        core = []
        if parser.parse_optional_punctuation(","):
            core = _parse_group(parser, "core")
        groups = [[semaphore], [value], core, _parse_group(parser, "mcast"), _parse_group(parser, "startDevice"),
                  _parse_group(parser, "deviceMcastShape")]
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        sem_type = parser.parse_type()
        operands = parser.resolve_operands([v for g in groups for v in g],
                                           [sem_type, *[IndexType()] * (sum(map(len, groups)) - 1)], position)
        return cls.create(operands=operands, attributes=attributes,
                          properties={"operandSegmentSizes": _segments(*groups)})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.semaphore, self.value], printer.print_operand)
        if self.dst_core_index:
            printer.print_string(",")
            _print_group(printer, " core", self.dst_core_index)
        _print_group(printer, " mcast", self.mcast_shape)
        _print_group(printer, " startDevice", self.start_device)
        _print_group(printer, " deviceMcastShape", self.device_mcast_shape)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.semaphore.type)

    @classmethod
    def get(cls, semaphore, value, core=(), mcast=()):
        groups = [[semaphore], [value], list(core), list(mcast), [], []]
        return cls.create(operands=[v for g in groups for v in g],
                          properties={"operandSegmentSizes": _segments(*groups)})


@irdl_op_definition
class SemaphoreSetOp(_SemaphoreUpdateOp):
    name = "d2m.semaphore_set"


@irdl_op_definition
class SemaphoreIncOp(_SemaphoreUpdateOp):
    name = "d2m.semaphore_inc"


@irdl_op_definition
class SemaphoreWaitOp(IRDLOperation):
    name = "d2m.semaphore_wait"
    semaphore = operand_def(LocalSemaphoreType | GlobalSemaphoreType)
    value = operand_def(IndexType)
    reset_value = opt_operand_def(IndexType)
    assembly_format = "$semaphore `,` $value (`reset` $reset_value^)? attr-dict `:` type($semaphore)"


@irdl_op_definition
class LocalCopyOp(IRDLOperation):
    """A block copied between two buffers of this core, rearranged by its indexing maps: between circular buffers
    (`d2m.local_copy from %cb0 into %cb1 indexing_maps = [#m, #m] : !d2m.cb<...>, !d2m.cb<...>`), or, lowered, between
    the blocks acquired from them (`%tx = d2m.local_copy %a, %b indexing_maps = [...] : A, B -> !d2m.mem_tx<read>`)."""

    name = "d2m.local_copy"
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    src = opt_operand_def()
    dst = opt_operand_def()
    src_cb = opt_operand_def(CBType)
    dst_cb = opt_operand_def(CBType)
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    result = opt_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> "LocalCopyOp":
        cbs = []
        if parser.parse_optional_keyword("from") is not None:
            cbs.append(parser.parse_unresolved_operand())
            parser.parse_keyword("into")
            cbs.append(parser.parse_unresolved_operand())
        buffers = []
        if (first := parser.parse_optional_unresolved_operand()) is not None:
            parser.parse_punctuation(",")
            buffers = [first, parser.parse_unresolved_operand()]
        parser.parse_keyword("indexing_maps")
        parser.parse_punctuation("=")
        maps = parser.parse_attribute()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        types_ = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        results = [parser.parse_type()] if parser.parse_optional_punctuation("->") else []
        operands = parser.resolve_operands([*buffers, *cbs], types_, position)
        pair = [0, 0] if not buffers else [1, 1]
        return cls.create(operands=operands, result_types=results, attributes=attributes, properties={
            "indexing_maps": maps, "operandSegmentSizes": DenseArrayBase.from_list(
                i32, [*pair, *([1, 1] if cbs else [0, 0])])})

    def print(self, printer: Printer) -> None:
        if self.src_cb is not None:
            printer.print_string(" from ")
            printer.print_operand(self.src_cb)
            printer.print_string(" into ")
            printer.print_operand(self.dst_cb)
        if self.src is not None:
            printer.print_string(" ")
            printer.print_list([self.src, self.dst], printer.print_operand)
        printer.print_string(" indexing_maps = ")
        printer.print_attribute(self.indexing_maps)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list(self.operand_types, printer.print_attribute)
        if self.result is not None:
            printer.print_string(" -> ")
            printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if (self.src is None) != (self.dst is None) or (self.src_cb is None) != (self.dst_cb is None) or \
                (self.src is None and self.src_cb is None):
            raise VerifyException(f"'{self.name}' op copies from a source to a destination (buffers or circular "
                                  f"buffers), both given")
        if len(self.indexing_maps.data) != 2:
            raise VerifyException(f"'{self.name}' op expects two indexing maps (source, destination)")

    def is_explicit_cb_form(self) -> bool:
        return self.src_cb is not None


@irdl_op_definition
class IndexedRowCopyOp(IRDLOperation):
    """Rows of `src` gathered by index into `dst` (an embedding lookup), staged through two L1 scratch buffers:
    `d2m.indexed_row_copy %indices, %src, %dst scratch %index_scratch, %row_scratch<rows, width> {indicesShape =
    array<i64: ...>} : I, S, D, IS, RS`."""

    name = "d2m.indexed_row_copy"
    indices = operand_def(MemRefType)
    src = operand_def(MemRefType)
    dst = operand_def(MemRefType)
    index_scratch = operand_def(MemRefType)
    row_scratch = operand_def(MemRefType)
    numRows = prop_def(IntegerAttr)  # noqa: N815 - upstream's property names
    rowWidth = prop_def(IntegerAttr)  # noqa: N815
    indicesShape = prop_def(DenseArrayBase)  # noqa: N815
    PROPERTIES: ClassVar[tuple[str, ...]] = ("indicesShape",)

    @classmethod
    def parse(cls, parser: Parser) -> "IndexedRowCopyOp":
        names = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            names.append(parser.parse_unresolved_operand())
        parser.parse_keyword("scratch")
        names.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(",")
        names.append(parser.parse_unresolved_operand())
        with parser.in_angle_brackets():
            rows = parser.parse_integer()
            parser.parse_punctuation(",")
            width = parser.parse_integer()
        attributes = parser.parse_optional_attr_dict()
        properties = {k: attributes.pop(k) for k in cls.PROPERTIES if k in attributes}
        parser.parse_punctuation(":")
        position = parser.pos
        types_ = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        return cls.create(operands=parser.resolve_operands(names, types_, position), attributes=attributes,
                          properties={**properties, "numRows": IntegerAttr(rows, i64),
                                      "rowWidth": IntegerAttr(width, i64)})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.indices, self.src, self.dst], printer.print_operand)
        printer.print_string(" scratch ")
        printer.print_list([self.index_scratch, self.row_scratch], printer.print_operand)
        printer.print_string(f"<{self.numRows.value.data}, {self.rowWidth.value.data}>")
        printer.print_op_attributes({"indicesShape": self.indicesShape, **self.attributes})
        printer.print_string(" : ")
        printer.print_list(self.operand_types, printer.print_attribute)


DMA_OPS = [DMAReadOp, DMAWriteOp, DMAWaitOp, SemaphoreSetOp, SemaphoreIncOp, SemaphoreWaitOp, LocalCopyOp, IndexedRowCopyOp]
DMA_TYPES = [MemTxType]
