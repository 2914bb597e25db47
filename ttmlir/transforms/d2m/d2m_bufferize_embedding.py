"""How `d2m.embedding` bufferizes (part of `d2m_bufferize`): on the buffers of its indices, table and output, it
becomes a `d2m.indexed_row_copy` staging through two L1 scratch buffers of a tile's worth of elements each (an
index packet, a row packet: `memref.alloc`s in its region, as upstream allocates them), and its result is the
output's buffer."""

from __future__ import annotations

from xdsl.dialects import memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType, NoneAttr, i64
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttcore
from ttmlir.dialects.d2m_dma import IndexedRowCopyOp
from ttmlir.dialects.d2m_embedding import EmbeddingOp

SCRATCH = 32 * 32  # elements of each scratch buffer
ALIGNMENT = 16  # bytes: the NoC's L1 address alignment
L1 = ttcore.MemorySpaceAttr(ttcore.MemorySpaceAttr.enum_type("l1"))


def bufferize_embedding(op: EmbeddingOp, buffer_type) -> None:
    if not isinstance(op.output.type, MemRefType):
        return
    scratches = [memref.AllocOp([], [], MemRefType(v.type.element_type, [1, SCRATCH], NoneAttr(), L1),
                                IntegerAttr(ALIGNMENT, i64)) for v in (op.indices, op.weight)]
    copy = IndexedRowCopyOp.create(
        operands=[op.indices, op.weight, op.output, *(s.memref for s in scratches)],
        properties={"numRows": op.numIndices, "rowWidth": op.embeddingDim, "indicesShape": op.indicesShape})
    for made in (*scratches, copy):
        made.location = op.location
    Rewriter.replace_op(op, [*scratches, copy], [op.output])


EMBEDDING_BUFFERIZE = {EmbeddingOp: bufferize_embedding}
