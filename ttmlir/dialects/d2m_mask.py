"""`d2m.mask`: a tiled tensor's padding (what lies outside its logical shape) replaced with a fill value:
`%r = d2m.mask %in, %out logical_shape = [50, 50] fill_value = <zero> : T into T -> T`. Canonicalization drops a
mask that changes nothing: one whose fill is `<undef>`, or of a tensor whose logical dims are already aligned (no
padding inside its tiles or past them)."""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, TensorType, i64
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.printer import Printer
from xdsl.traits import HasCanonicalizationPatternsTrait
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects import ttcore


def _no_padding(value_type, logical: tuple[int, ...]) -> bool:
    if not isinstance(value_type.get_element_type(), ttcore.TileType):
        return True
    layout = value_type.encoding if isinstance(value_type, TensorType) else None
    if not isinstance(layout, ttcore.MetalLayoutAttr) or len(logical) != len(layout.data.dim_alignments):
        return False
    return all(dim % align == 0 for dim, align in zip(logical, layout.data.dim_alignments))


class _MaskCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (DropNoOpMask(),)


@irdl_op_definition
class MaskOp(IRDLOperation):
    """Elements of `input` outside `logical_shape` are `fill_value` in the result (written into `output`)."""

    name = "d2m.mask"
    input = operand_def()
    output = operand_def()
    logical_shape = prop_def(DenseArrayBase)
    fill_value = prop_def(ttcore.OOBValAttr)
    result = result_def()
    traits = traits_def(_MaskCanonicalization())

    @classmethod
    def parse(cls, parser: Parser) -> "MaskOp":
        values = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        values.append(parser.parse_unresolved_operand())
        parser.parse_keyword("logical_shape")
        parser.parse_punctuation("=")
        shape = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
        parser.parse_keyword("fill_value")
        parser.parse_punctuation("=")
        position = parser.pos
        with parser.in_angle_brackets():  # the enum's own text, stripped as the op's format prints it
            fill = parser.parse_identifier()
        kinds = [kind.value for kind in ttcore.OOBValAttr.enum_type]
        if fill not in kinds:
            parser.raise_error(f"expected one of {', '.join(kinds)} for fill_value", position)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        input_type = parser.parse_type()
        parser.parse_keyword("into")
        output_type = parser.parse_type()
        parser.parse_punctuation("->")
        result = parser.parse_type()
        return cls.create(operands=parser.resolve_operands(values, [input_type, output_type], position),
                          result_types=[result], attributes=attributes, properties={
                              "logical_shape": DenseArrayBase.from_list(i64, shape),
                              "fill_value": ttcore.OOBValAttr(ttcore.OOBValAttr.enum_type(fill))})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.input, self.output], printer.print_operand)
        printer.print_string(f" logical_shape = [{', '.join(map(str, self.logical_shape.get_values()))}]"
                             f" fill_value = <{self.fill_value.data.value}>")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(" into ")
        printer.print_attribute(self.output.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if not self.input.type == self.output.type == self.result.type:
            raise VerifyException(f"'{self.name}' op input, output, and result must have identical types")
        if len(self.logical_shape.get_values()) < 2:
            raise VerifyException(f"'{self.name}' op logical_shape must have rank at least 2")


class DropNoOpMask(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MaskOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.result.type, TensorType) or op.input.type != op.result.type:
            return
        if op.fill_value.data.value == "undef" or _no_padding(op.input.type, op.logical_shape.get_values()):
            rewriter.replace_op(op, [], [op.input])
