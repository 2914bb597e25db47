"""What the thread-splitting passes share about a generic region's circular buffers: which ops move blocks between
cores (shard DMA), which ops compute on tiles, the CB port a data-movement op synchronizes on, and loop depths."""

from __future__ import annotations

from xdsl.dialects import linalg, scf
from xdsl.ir import Block, Operation, SSAValue

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_alias import OperandAliasOp
from ttmlir.dialects.d2m_cb import GetCBOp
from ttmlir.dialects.d2m_dma import LocalCopyOp
from ttmlir.dialects.d2m_tile_reduce import TileReduceOp
from ttmlir.dialects.d2m_tilize import TILIZE_OPS
from ttmlir.errors import PassFailure

SHARD_DMA = (d2m.RemoteLoadOp, d2m.RemoteStoreOp, LocalCopyOp)
TILE_COMPUTE = (d2m.TileOp, TileReduceOp, d2m.TileFillOp, *TILIZE_OPS)
COMPUTE = (linalg.GenericOp, *TILE_COMPUTE)
# region buffers that are the compute thread's own, not circular buffers
LOCAL_BUFFER_ATTRS = ("d2m.scratch_buffer", "d2m.reduction_scaler")


def operand_index(generic: d2m.GenericOp, value: SSAValue, op: Operation) -> int:
    for i, operand in enumerate(generic.operands):
        if operand is value:
            return i
    raise PassFailure(op, f"'{op.name}' op its local buffer must be an operand of the enclosing d2m.generic (an "
                          f"additional argument) to become a circular buffer")


def aliased(op: Operation) -> bool:
    """A load or store of a buffer that is its own remote operand in place: it moves no data."""
    if not isinstance(op, (d2m.RemoteLoadOp, d2m.RemoteStoreOp)) or op.local is None:
        return False
    remote = op.source if isinstance(op, d2m.RemoteLoadOp) else op.dest
    return isinstance(op.local.owner, OperandAliasOp) and op.local.owner.memref is remote


def _port_of_cb(cb: SSAValue, op: Operation) -> int:
    if isinstance(cb.owner, GetCBOp):
        return cb.owner.cb_operand_idx.value.data
    raise PassFailure(op, f"'{op.name}' op its circular buffer must come from a d2m.get_cb")


def dma_cb_port(generic: d2m.GenericOp, op: Operation) -> int:
    """The CB port a data-movement op synchronizes on: its CB's operand (the local buffer's, in implicit form)."""
    if isinstance(op, LocalCopyOp):
        return _port_of_cb(op.dst_cb, op) if op.dst_cb is not None else operand_index(generic, op.dst, op)
    return _port_of_cb(op.cb, op) if op.cb is not None else operand_index(generic, op.local, op)


def is_local_buffer(value: SSAValue) -> bool:
    owner = value.owner
    return isinstance(owner, Operation) and any(a in owner.attributes for a in LOCAL_BUFFER_ATTRS)


def for_depth(op: Operation) -> int:
    """How many scf.for loops enclose `op` inside its generic."""
    depth, parent = 0, op.parent_op()
    while parent is not None and not isinstance(parent, d2m.GenericOp):
        depth += isinstance(parent, scf.ForOp)
        parent = parent.parent_op()
    return depth


def in_block(block: Block, op: Operation) -> Operation | None:
    """The op of `block` that is or holds `op`."""
    return block.find_ancestor_op_in_block(op)
