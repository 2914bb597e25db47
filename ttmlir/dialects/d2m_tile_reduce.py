"""D2M's tile reductions, in upstream's generic form: the FPU ones reduce tile A scaled by tile B into C
(`"d2m.tile_reduce_sum"(%a, %b, %c) <{reduce_dim = #d2m<reduce_dim R>}>`, float tiles only), the SFPU ones reduce A
into C on signed 32-bit tiles (`"d2m.tile_sfpu_reduce_max"(%a, %c) <{dst_scratch_index = -1 : i64, reduce_dim =
...}>`; the scratch slot in dst is chosen when dst register access is inserted, -1 until then)."""

from __future__ import annotations

import types
from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Data
from xdsl.irdl import (IRDLOperation, irdl_attr_definition, irdl_op_definition, opt_prop_def, result_def,
                       var_operand_def)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects import ttcore
from ttmlir.dialects.d2m_cb import verify_compute_region

INTEGER_DTYPES = frozenset({"u8", "u16", "u32", "si32"})  # the tile data types that are not floats


@irdl_attr_definition
class ReduceDimAttr(Data[str]):
    """Which dims of a tile a reduction folds: `#d2m<reduce_dim R>` (rows), `C` (columns) or `RC` (both)."""

    name = "d2m.reduce_dim"
    VALUES: ClassVar[tuple[str, ...]] = ("R", "C", "RC")
    opaque_syntax: ClassVar[bool] = True  # printed `#d2m<reduce_dim R>`, as MLIR prints it

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> str:
        position = parser.pos
        word = parser.parse_identifier()
        if word not in cls.VALUES:
            parser.raise_error(f"expected one of {', '.join(cls.VALUES)} for reduce_dim, got {word}", position)
        return word

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(self.data)


class TileReduceOp(IRDLOperation):
    """A tile reduction; `TILES` names its tile operands, `SFPU` says which engine (and element types) it uses."""

    TILES: ClassVar[tuple[str, ...]] = ()
    SFPU: ClassVar[bool] = False
    INHERENT: ClassVar[frozenset[str]] = frozenset({"reduce_dim", "dst_scratch_index"})
    operands_ = var_operand_def(ttcore.TileType)
    result = result_def(ttcore.TileType)
    reduce_dim = opt_prop_def(ReduceDimAttr)
    dst_scratch_index = opt_prop_def(IntegerAttr)

    @classmethod
    def create(cls, *, operands=(), result_types=(), properties=None, attributes=None, **rest):
        # inherent attributes written in the generic form's `{...}` dictionary are properties, as MLIR reads them
        properties, attributes = dict(properties or {}), dict(attributes or {})
        for key in [k for k in attributes if k in cls.INHERENT]:
            properties[key] = attributes.pop(key)
        if cls.SFPU and "dst_scratch_index" not in properties:
            properties["dst_scratch_index"] = IntegerAttr(-1, i64)
        return super().create(operands=operands, result_types=result_types, properties=properties,
                              attributes=attributes, **rest)

    def verify_(self) -> None:
        verify_compute_region(self)
        if len(self.operands) != len(self.TILES):
            raise VerifyException(f"'{self.name}' op expected {len(self.TILES)} operands, but found "
                                  f"{len(self.operands)}")
        if self.reduce_dim is None:
            raise VerifyException(f"'{self.name}' op requires attribute 'reduce_dim'")
        if self.SFPU and self.dst_scratch_index is None:
            raise VerifyException(f"'{self.name}' op requires attribute 'dst_scratch_index'")
        dtypes = [v.type.dtype for v in self.operands]
        if self.SFPU and any(d != "si32" for d in dtypes):
            raise VerifyException(f"'{self.name}' op requires signed 32-bit integer tile element types; use the "
                                  f"matching tile_reduce_* op for float reductions")
        if not self.SFPU and any(d in INTEGER_DTYPES for d in dtypes):
            raise VerifyException(f"'{self.name}' op requires float tile element types; use the matching "
                                  f"tile_sfpu_reduce_* op for integer reductions")


def _reduce_op(mnemonic: str, tiles: tuple[str, ...], sfpu: bool) -> type[TileReduceOp]:
    camel = "".join(p.capitalize() for p in mnemonic.split("_")) + "Op"
    body = {"name": f"d2m.{mnemonic}", "TILES": tiles, "SFPU": sfpu, "__doc__": f"upstream's `d2m.{mnemonic}`.",
            "__annotations__": {"TILES": ClassVar[tuple[str, ...]], "SFPU": ClassVar[bool]}}
    return irdl_op_definition(types.new_class(camel, (TileReduceOp,), exec_body=lambda ns: ns.update(body)))


TILE_REDUCE_OPS = [_reduce_op("tile_reduce_sum", ("a", "b", "c"), False),
                   _reduce_op("tile_reduce_max", ("a", "b", "c"), False),
                   _reduce_op("tile_reduce_mean", ("a", "b", "c"), False),
                   _reduce_op("tile_sfpu_reduce_sum", ("a", "c"), True),
                   _reduce_op("tile_sfpu_reduce_max", ("a", "c"), True)]
