"""D2M's index ops of a generic region beyond `d2m.block_index`: where the region's blocks start on this core
(`d2m.block_offset(0) : index`), how many blocks it iterates along a loop dim (`d2m.get_block_factor(0) : index`, the
generic's `block_factors` entry) and which core of the grid runs it (`d2m.core_index(0) : index`, optionally through a
`phys_to_virt_map` when the grid is virtual)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, i64
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_prop_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


class _IndexOp(IRDLOperation):
    """`d2m.<name>(dim) : index`; `PROPERTIES` are the optional properties written in its attribute dictionary."""

    PROPERTIES: ClassVar[tuple[str, ...]] = ()
    RESULT_NAME: ClassVar[str] = ""  # upstream's getAsmResultNames: this name, then the dim

    dim = prop_def(IntegerAttr)
    result = result_def(IndexType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        with parser.in_parens():
            dim = parser.parse_integer()
        attributes = parser.parse_optional_attr_dict()
        properties = {name: attributes.pop(name) for name in cls.PROPERTIES if name in attributes}
        parser.parse_punctuation(":")
        return cls.create(properties={"dim": IntegerAttr(dim, i64), **properties}, attributes=attributes,
                          result_types=[parser.parse_type()])

    def print(self, printer: Printer) -> None:
        printer.print_string(f"({self.dim.value.data})")
        printer.print_op_attributes({**{k: v for k, v in self.properties.items() if k != "dim"}, **self.attributes})
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def asm_result_name(self) -> str:
        return f"{self.RESULT_NAME}{self.dim.value.data}"

    def verify_(self) -> None:
        if self.dim.value.data < 0:
            raise VerifyException(f"'{self.name}' op attribute 'dim' failed to satisfy constraint: 64-bit signless "
                                  f"integer attribute whose minimum value is 0")


@irdl_op_definition
class BlockOffsetOp(_IndexOp):
    """The first block this core's region computes along loop dim `dim`."""

    name = "d2m.block_offset"
    RESULT_NAME: ClassVar[str] = "block_offset"


@irdl_op_definition
class GetBlockFactorOp(_IndexOp):
    """The blocks the region iterates along loop dim `dim` (the generic's block factor there)."""

    name = "d2m.get_block_factor"
    RESULT_NAME: ClassVar[str] = "block_factor"


@irdl_op_definition
class CoreIndexOp(_IndexOp):
    """This core's coordinate along grid dim `dim` (virtual, through `phys_to_virt_map`, when it is given)."""

    name = "d2m.core_index"
    RESULT_NAME: ClassVar[str] = "core"
    PROPERTIES: ClassVar[tuple[str, ...]] = ("phys_to_virt_map",)
    phys_to_virt_map = opt_prop_def(AffineMapAttr)


INDEX_OPS = [BlockOffsetOp, GetBlockFactorOp, CoreIndexOp]
