"""D2M's scratch space: a generic region's L1 scratch buffer (`d2m.scratch_init %buf : memref<1xNx...>` anchors the
`memref.alloc` it lives in) and the slots carved out of it for intermediates (`%s = d2m.scratch_allocate {slot = 0 :
i64} : memref<Mx...>`), until `--d2m-lower-scratch-allocate` turns each slot into a subview of the buffer."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, MemRefType
from xdsl.irdl import IRDLOperation, ParsePropInAttrDict, irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import EffectInstance, MemoryEffect, MemoryEffectKind


class _SlotEffect(MemoryEffect):
    """A slot is a fresh buffer: dropped when unused."""

    @classmethod
    def get_effects(cls, op):
        return frozenset({EffectInstance(MemoryEffectKind.ALLOC, op.results[0])})


@irdl_op_definition
class ScratchAllocateOp(IRDLOperation):
    """A slot of the region's scratch buffer: `%s = d2m.scratch_allocate {slot = 0 : i64} : memref<2x!tile, #l1>`."""

    name = "d2m.scratch_allocate"
    slot = prop_def(IntegerAttr)
    result = result_def(MemRefType)
    traits = traits_def(_SlotEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"


@irdl_op_definition
class ScratchInitOp(IRDLOperation):
    """The region's scratch buffer: `d2m.scratch_init %buf : memref<1x8x!tile, #l1>` (keeps its alloc alive)."""

    name = "d2m.scratch_init"
    scratch = operand_def(MemRefType)
    assembly_format = "$scratch attr-dict `:` type($scratch)"


SCRATCH_OPS = [ScratchAllocateOp, ScratchInitOp]
