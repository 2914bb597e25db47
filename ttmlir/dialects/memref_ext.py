"""xDSL's `memref` dialect with MLIR's fold of a trivial `memref.subview`: a view at offset 0 (static or a constant
operand) with the source's whole shape and unit strides is the source itself. Loads and stores through it read the
source directly; any other user gets a `memref.cast` of the source to the view's type (as MLIR folds it, the cast
absorbed by the loads and stores). A subview of a cast that only forgets static facts is a subview of the cast's
source (MLIR's SubViewOpMemRefCastFolder). `memref.copy %src, %dst : memref<A> to memref<B>` and
`memref.global "private" constant @name : memref<32x32xf32> = dense<1.0>` (the initializer's type is the memref's
as a tensor; `= uninitialized` for none) in MLIR's syntax."""

from __future__ import annotations

import io

from xdsl.dialects import affine, arith
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (IntAttr, IntegerAttr, MemRefType, NoneAttr, StridedLayoutAttr, StringAttr,
                                   TensorType, UnitAttr)
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.irdl import traits_def
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.traits import HasCanonicalizationPatternsTrait, NoMemoryEffect
from xdsl.transforms.canonicalization_patterns.memref import MemRefSubviewOfSubviewFolding

# ops that read or write through a memref of any layout (their types do not change with it)
LAYOUT_AGNOSTIC_USERS = (affine.LoadOp, affine.StoreOp, xmemref.LoadOp, xmemref.StoreOp)


def _values(static, dynamic) -> list[int | None]:
    """A subview's offsets (sizes, strides): each static value, or a dynamic operand's constant, or None."""
    operands = iter(dynamic)
    values = []
    for value in static.get_values():
        if value == xmemref.DYNAMIC_INDEX:
            owner = next(operands).owner
            constant = owner.value if isinstance(owner, arith.ConstantOp) else None
            values.append(constant.value.data if isinstance(constant, IntegerAttr) else None)
        else:
            values.append(value)
    return values


def _reads_through(use) -> bool:
    """Whether a use only reads or writes through the memref (any layout does)."""
    user = use.operation
    return isinstance(user, LAYOUT_AGNOSTIC_USERS) and not (isinstance(user, (affine.StoreOp, xmemref.StoreOp)) and
                                                            user.value is use.operation.operands[use.index])


class FoldTrivialSubview(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xmemref.SubviewOp, rewriter: PatternRewriter, /):
        shape = op.source.type.get_shape()
        if _values(op.static_offsets, op.offsets) != [0] * len(shape) or \
                _values(op.static_sizes, op.sizes) != list(shape) or \
                _values(op.static_strides, op.strides) != [1] * len(shape):
            return
        source: SSAValue = op.source
        others = [use for use in op.result.uses if not _reads_through(use)]
        if not others:
            rewriter.replace_op(op, [], [source])
            return
        # other users keep the view's type, through a cast; loads and stores read the source
        cast = CastOp.create(operands=[source], result_types=[op.result.type])
        rewriter.replace_op(op, cast)
        for use in [u for u in cast.results[0].uses if _reads_through(u)]:
            use.operation.operands[use.index] = source


def _strides_offset(t: MemRefType) -> tuple[list[int | None], int | None] | None:
    """A memref type's strides and offset (None where dynamic), or None when its layout is not strided."""
    if isinstance(t.layout, NoneAttr):
        strides, step = [], 1
        for size in reversed(t.get_shape()):
            strides.insert(0, step)
            step *= size
        return strides, 0
    if isinstance(t.layout, StridedLayoutAttr):
        return [v.data if isinstance(v, IntAttr) else None for v in t.layout.strides.data], \
            t.layout.offset.data if isinstance(t.layout.offset, IntAttr) else None
    return None


def _forgets_only(cast: "CastOp") -> bool:
    """MLIR's canFoldIntoConsumerOp: the cast only forgets facts its source's type knows (same shape, element type
    and memory space; each stride and the offset of the result either dynamic or the source's)."""
    source, result = cast.source.type, cast.dest.type
    if not isinstance(source, MemRefType) or not isinstance(result, MemRefType) or \
            source.get_shape() != result.get_shape() or source.element_type != result.element_type or \
            source.memory_space != result.memory_space:
        return False
    known, forgotten = _strides_offset(source), _strides_offset(result)
    if known is None or forgotten is None:
        return False
    pairs = [*zip(known[0], forgotten[0]), (known[1], forgotten[1])]
    return all(after is None or after == before for before, after in pairs)


def _mixed(static, dynamic) -> list:
    """A subview's offsets (sizes, strides) as ints and index values, as `subview` takes them."""
    operands = iter(dynamic)
    return [next(operands) if value == xmemref.DYNAMIC_INDEX else value for value in static.get_values()]


class FoldSubviewOfCast(RewritePattern):
    """MLIR's SubViewOpMemRefCastFolder: a view of a cast that only forgets static facts is a view of the cast's
    source (cast back to the old view's type if the new one knows more), so the accesses name the buffer itself."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xmemref.SubviewOp, rewriter: PatternRewriter, /):
        cast = op.source.owner
        if not isinstance(cast, xmemref.CastOp) or not _forgets_only(cast):
            return
        view = subview(cast.source, _mixed(op.static_offsets, op.offsets), _mixed(op.static_sizes, op.sizes),
                       _mixed(op.static_strides, op.strides))
        if view.result.type == op.result.type:
            rewriter.replace_op(op, view)
        else:
            rewriter.replace_op(op, [view, CastOp.create(operands=[view.result], result_types=[op.result.type])])


def subview(source: SSAValue, offsets, sizes, strides) -> "SubviewOp":
    """`memref.subview %source[offsets] [sizes] [strides]` (each an int or an index value), its type inferred."""
    result = xmemref.SubviewOp.infer_result_type(source.type, offsets, sizes, strides)
    made = xmemref.SubviewOp.get(source, offsets, sizes, strides, result)
    view = SubviewOp.create(operands=list(made.operands), result_types=[result], properties=dict(made.properties))
    made.erase()
    return view


class _Canonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (MemRefSubviewOfSubviewFolding(), FoldTrivialSubview(), FoldSubviewOfCast())


class SubviewOp(xmemref.SubviewOp):  # xDSL's definition, inherited as it is; only its patterns differ
    traits = traits_def(_Canonicalization(), NoMemoryEffect())


def _parse_operands_to(parser: Parser, count: int) -> tuple[list[SSAValue], Attribute, dict]:
    """`%a[, %b] {attrs} : A to B` (MLIR's memref.cast/copy syntax): the operands resolved (the first of type A, a
    second of type B), B, and the attribute dictionary."""
    names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
    if len(names) != count:
        parser.raise_error(f"expected {count} operand(s)")
    attributes = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    position = parser.pos
    first = parser.parse_type()
    parser.parse_keyword("to")
    second = parser.parse_type()
    return parser.resolve_operands(names, [first, second][:count], position), second, attributes


def _print_operands_to(printer: Printer, op, first: Attribute, second: Attribute) -> None:
    printer.print_string(" ")
    printer.print_list(op.operands, printer.print_operand)
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(first)
    printer.print_string(" to ")
    printer.print_attribute(second)


class CastOp(xmemref.CastOp):
    """`memref.cast %m : A to B`, MLIR's syntax (xDSL prints the generic form)."""

    @classmethod
    def parse(cls, parser: Parser) -> "CastOp":
        operands, result_type, attributes = _parse_operands_to(parser, 1)
        return cls.create(operands=operands, result_types=[result_type], attributes=attributes)

    def print(self, printer: Printer) -> None:
        _print_operands_to(printer, self, self.source.type, self.dest.type)


class CopyOp(xmemref.CopyOp):  # xDSL's definition, inherited as it is; only the text differs
    @classmethod
    def parse(cls, parser: Parser) -> "CopyOp":
        operands, _, attributes = _parse_operands_to(parser, 2)
        op = cls(*operands)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        _print_operands_to(printer, self, self.source.type, self.destination.type)


_INHERENT = ("sym_name", "sym_visibility", "type", "initial_value", "constant", "alignment")


class GlobalOp(xmemref.GlobalOp):  # xDSL's definition, inherited as it is; only the syntax differs
    @classmethod
    def parse(cls, parser: Parser) -> "GlobalOp":
        properties = {}
        if (visibility := parser.parse_optional_str_literal()) is not None:
            properties["sym_visibility"] = StringAttr(visibility)
        if parser.parse_optional_keyword("constant") is not None:
            properties["constant"] = UnitAttr()
        properties["sym_name"] = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        position = parser.pos
        memref_type = parser.parse_type()
        properties["type"] = memref_type
        if parser.parse_optional_punctuation("=") is not None:
            if parser.parse_optional_keyword("uninitialized") is not None:
                properties["initial_value"] = UnitAttr()
            else:
                parser.parse_keyword("dense")
                tensor = TensorType(memref_type.element_type, memref_type.get_shape())
                properties["initial_value"] = parser.parse_dense_int_or_fp_elements_attr(tensor)
        else:
            parser.raise_error("a memref.global without an initializer (an external declaration) is not supported",
                               position)
        attributes = parser.parse_optional_attr_dict()
        for name in [n for n in attributes if n in _INHERENT]:
            properties[name] = attributes.pop(name)
        properties.setdefault("sym_visibility", StringAttr("public"))
        return cls.create(properties=properties, attributes=attributes)

    def print(self, printer: Printer) -> None:
        if self.sym_visibility.data != "public":
            printer.print_string(" ")
            printer.print_string_literal(self.sym_visibility.data)
        if self.constant is not None:
            printer.print_string(" constant")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.type)
        printer.print_string(" = ")
        if isinstance(self.initial_value, UnitAttr):
            printer.print_string("uninitialized")
        else:
            printer.print_string(_literal(printer, self.initial_value))
        extra = {"alignment": self.alignment} if self.alignment is not None else {}
        printer.print_op_attributes({**extra, **self.attributes})


def _literal(printer: Printer, attribute) -> str:
    """The dense literal without its type (`dense<1.0>`), as MLIR prints the initializer."""
    stream, printer.stream = printer.stream, io.StringIO()
    try:
        printer.print_attribute(attribute)
        full = printer.stream.getvalue()
        printer.stream = io.StringIO()
        printer.print_attribute(attribute.type)
        suffix = " : " + printer.stream.getvalue()
    finally:
        printer.stream = stream
    return full[:-len(suffix)] if full.endswith(suffix) else full



REPLACED = ("memref.subview", "memref.cast", "memref.copy", "memref.global")
MemRef = Dialect("memref", [*(op for op in xmemref.MemRef.operations if op.name not in REPLACED), SubviewOp, CastOp, CopyOp, GlobalOp],
                 list(xmemref.MemRef.attributes))
