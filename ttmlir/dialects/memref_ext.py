"""xDSL's `memref` dialect with MLIR's fold of a trivial `memref.subview`: a view at offset 0 (static or a constant
operand) with the source's whole shape and unit strides is the source itself. Loads and stores through it read the
source directly; any other user gets a `memref.cast` of the source to the view's type (as MLIR folds it, the cast
absorbed by the loads and stores); `memref.copy %src, %dst : memref<A> to memref<B>` in MLIR's syntax."""

from __future__ import annotations

from xdsl.dialects import affine, arith
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Dialect, SSAValue
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
        return (MemRefSubviewOfSubviewFolding(), FoldTrivialSubview())


class SubviewOp(xmemref.SubviewOp):  # xDSL's definition, inherited as it is; only its patterns differ
    traits = traits_def(_Canonicalization(), NoMemoryEffect())


class CastOp(xmemref.CastOp):
    """`memref.cast %m : A to B`, MLIR's syntax (xDSL prints the generic form)."""

    @classmethod
    def parse(cls, parser: Parser) -> "CastOp":
        source = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        result_type = parser.parse_type()
        (value,) = parser.resolve_operands([source], [source_type], position)
        return cls.create(operands=[value], result_types=[result_type], attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" to ")
        printer.print_attribute(self.dest.type)


class CopyOp(xmemref.CopyOp):  # xDSL's definition, inherited as it is; only the text differs
    @classmethod
    def parse(cls, parser: Parser) -> "CopyOp":
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        names.append(parser.parse_unresolved_operand())
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        source = parser.parse_type()
        parser.parse_keyword("to")
        target = parser.parse_type()
        op = cls(*parser.resolve_operands(names, [source, target], position))
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" to ")
        printer.print_attribute(self.destination.type)



REPLACED = ("memref.subview", "memref.cast", "memref.copy")
MemRef = Dialect("memref", [*(op for op in xmemref.MemRef.operations if op.name not in REPLACED), SubviewOp, CastOp, CopyOp],
                 list(xmemref.MemRef.attributes))
