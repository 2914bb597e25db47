"""More of upstream's D2M tile ops, in generic form: the comparisons with zero (`"d2m.tile_eqz"(%t)`, nez, gtz,
gez, ltz, lez: 1 where the element compares true, else 0). The DST passes place them."""

from __future__ import annotations

import types
from typing import ClassVar

from xdsl.irdl import IRDLOperation, irdl_op_definition, result_def, var_operand_def
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects import ttcore
from ttmlir.dialects.d2m_cb import verify_compute_region


class _TileOp(IRDLOperation):
    """A tile op of `ARITY` tile operands and one tile result."""

    ARITY: ClassVar[int] = 1
    operands_ = var_operand_def(ttcore.TileType)
    result = result_def(ttcore.TileType)

    def verify_(self) -> None:
        verify_compute_region(self)
        if len(self.operands) != self.ARITY:
            raise VerifyException(f"'{self.name}' op expected {self.ARITY} operands, but found {len(self.operands)}")


def _op(mnemonic: str, arity: int) -> type[_TileOp]:
    camel = "".join(p.capitalize() for p in mnemonic.split("_")) + "Op"
    body = {"name": f"d2m.{mnemonic}", "ARITY": arity, "__doc__": f"upstream's `d2m.{mnemonic}`.",
            "__annotations__": {"ARITY": ClassVar[int]}}
    return irdl_op_definition(types.new_class(camel, (_TileOp,), exec_body=lambda ns: ns.update(body)))


EXTRA_TILE_OPS = [_op(f"tile_{c}z", 1) for c in ("eq", "ne", "gt", "ge", "lt", "le")]
