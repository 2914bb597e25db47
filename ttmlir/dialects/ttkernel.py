"""The ttkernel dialect: tt-metal's kernel API as IR. This holds what a kernel function carries (its thread,
`#ttkernel.thread<compute>`, and its argument spec, `#ttkernel.arg_spec<...>`) and the CB type; the ops
follow as the D2M lowering comes to emit them."""

from __future__ import annotations

from xdsl.ir import Attribute, Data, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.dialects.builtin import IntAttr
from xdsl.parser import AttrParser
from xdsl.printer import Printer

from ttmlir.dialects.syntax import enum_attr

ThreadAttr = enum_attr("ttkernel.thread", ("noc", "compute", "ethernet"), "The RISC-V thread a kernel runs on.")
ARG_TYPES = ("cb_port", "buffer_address", "local_semaphore", "named_argument", "global_semaphore", "scalar",
             "tensor_accessor_args")
ARG_GROUPS = ("rt_args", "ct_args")


def _parse_arg(parser: AttrParser) -> tuple[str, str | None, int]:
    with parser.in_angle_brackets():
        parser.parse_keyword("arg_type")
        parser.parse_punctuation("=")
        kind = parser.parse_identifier()
        if kind not in ARG_TYPES:
            parser.raise_error(f"expected a kernel argument type ({', '.join(ARG_TYPES)}), got '{kind}'")
        parser.parse_punctuation(",")
        name = None
        if parser.parse_optional_keyword("argument_name") is not None:
            parser.parse_punctuation("=")
            name = parser.parse_str_literal()
            parser.parse_punctuation(",")
        parser.parse_keyword("operand_index")
        parser.parse_punctuation("=")
        return kind, name, parser.parse_integer(allow_negative=False)


def _arg_text(kind: str, name: str | None, index: int) -> str:
    if name is None:
        return f"<arg_type = {kind}, operand_index = {index}>"
    return f'<arg_type = {kind}, argument_name = "{name}", operand_index = {index} >'


@irdl_attr_definition
class ArgSpecAttr(Data[tuple[tuple[tuple[str, str | None, int], ...], ...]]):
    """A kernel's runtime and compile-time arguments, each a type and the index of the enqueue_program operand it
    is taken from: `#ttkernel.arg_spec< ct_args = [<arg_type = cb_port, operand_index = 0>]>`."""

    name = "ttkernel.arg_spec"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        groups = []
        with parser.in_angle_brackets():
            for group in ARG_GROUPS:
                if parser.parse_optional_keyword(group) is None:
                    groups.append(())
                    continue
                parser.parse_punctuation("=")
                groups.append(tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                                                      lambda: _parse_arg(parser))))
        return tuple(groups)

    def print_parameter(self, printer: Printer) -> None:
        parts = [f"{g} = [{', '.join(_arg_text(*a) for a in args)}]" for g, args in zip(ARG_GROUPS, self.data) if args]
        printer.print_string("< " + " ".join(parts) + ">")

    @property
    def groups(self) -> dict[str, tuple[tuple[str, str | None, int], ...]]:
        return dict(zip(ARG_GROUPS, self.data))


@irdl_attr_definition
class CBType(ParametrizedAttribute, TypeAttribute):
    """A circular buffer handle: `!ttkernel.cb<8, !ttcore.tile<32x32, f32>>` (pages, page element)."""

    name = "ttkernel.cb"
    pages: IntAttr = param_def(IntAttr)
    element: Attribute = param_def(Attribute)

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            pages = parser.parse_integer(allow_negative=False)
            parser.parse_punctuation(",")
            return IntAttr(pages), parser.parse_type()

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.pages.data}, ")
        printer.print_attribute(self.element)
        printer.print_string(">")


TTKernel = Dialect("ttkernel", [], [ThreadAttr, ArgSpecAttr, CBType])
