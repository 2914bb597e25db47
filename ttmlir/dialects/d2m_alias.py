"""A generic region's buffer that is a shard of an operand in place, with no buffer of its own (the allocator's
choice for an operand that needs no stream): `%shard = d2m.operand_alias %in : memref<4x3x1x1x!tile, #shard, #l1>
-> memref<1x1x!tile, #l1>` (the grid dims dropped)."""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import EffectInstance, MemoryEffect, MemoryEffectKind
from xdsl.utils.exceptions import VerifyException


class _ReadsWrites(MemoryEffect):
    @classmethod
    def get_effects(cls, op):
        return frozenset({EffectInstance(MemoryEffectKind.READ), EffectInstance(MemoryEffectKind.WRITE)})


@irdl_op_definition
class OperandAliasOp(IRDLOperation):
    name = "d2m.operand_alias"
    memref = operand_def(MemRefType)
    aliased_buffer = result_def(MemRefType)
    traits = traits_def(_ReadsWrites())
    assembly_format = "$memref attr-dict `:` type($memref) `->` type($aliased_buffer)"

    def verify_(self) -> None:
        for value in (self.memref, self.aliased_buffer):
            if not value.type.get_shape():
                raise VerifyException(f"'{self.name}' op operand and result must be memrefs of non-zero rank")


ALIAS_OPS = [OperandAliasOp]
