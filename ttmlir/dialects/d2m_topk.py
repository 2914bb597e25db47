"""D2M ops of a top-k inside a generic, in upstream's generic form.

`d2m.topk_block` is the whole top-k of a core's shard (its values sorted down tile columns: `dim` names which shard
dim the sort runs along, `num_elements` how many the reduction holds); `--d2m-decompose-topk` writes it out as a
merge tree of the three tile ops, each acting on a pair of tiles (`tile_a`, `tile_b`, flat indices into the shard)
held in DST as 64-element columns (tile_a's 32 rows, then tile_b's):
- `d2m.tile_topk_local_sort`: each half sorted, tile_a's in direction `idir` (0: descending), tile_b's the other way,
  so the column is one bitonic sequence;
- `d2m.tile_topk_merge`: the top `k` of the two halves into tile_a, the rest into tile_b;
- `d2m.tile_topk_rebuild`: tile_a's run (and tile_b's unless `skip_second`) sorted again, `logk` the log2 of the
  run length it sorts.
`is_group_start` ops load the pair (from the outputs when `read_from_output`), `is_group_end` ones pack it back."""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, IndexType, IntegerAttr, IntegerType, MemRefType, TensorType
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects.d2m_cb import verify_compute_region

I1, I32 = IntegerType(1), IntegerType(32)
BUFFER = MemRefType | TensorType


@irdl_op_definition
class TopkBlockOp(IRDLOperation):
    """upstream's `d2m.topk_block`: top-`k` of `input_values` along shard dim `dim` into `out_values` and
    `out_indices`; with `generate_indices` `scratch_idx_tile` is a scratch tile the index buffer is built from,
    else the indices paired with the values."""

    name = "d2m.topk_block"
    input_values = operand_def(BUFFER)
    scratch_idx_tile = operand_def(BUFFER)
    out_values = operand_def(BUFFER)
    out_indices = operand_def(BUFFER)
    k = prop_def(IntegerAttr)
    num_elements = prop_def(IntegerAttr)
    stable_sort = prop_def(BoolAttr)
    dim = prop_def(IntegerAttr)
    generate_indices = opt_prop_def(BoolAttr)
    result_values = result_def(BUFFER)
    result_indices = result_def(BUFFER)

    def verify_(self) -> None:
        verify_compute_region(self)
        k, dim = self.k.value.data, self.dim.value.data
        if k <= 0 or k > 64:
            raise VerifyException(f"'{self.name}' op k must be in [1, 64], got {k}")
        if dim not in (0, 1):
            raise VerifyException(f"'{self.name}' op dim must be 0 or 1, got {dim}")
        if self.out_values.type.get_shape() != self.input_values.type.get_shape():
            raise VerifyException(f"'{self.name}' op out_values must have the shape of input_values")


@irdl_op_definition
class TileTopkLocalSortOp(IRDLOperation):
    """upstream's `d2m.tile_topk_local_sort` (see the module doc)."""

    name = "d2m.tile_topk_local_sort"
    values = operand_def(BUFFER)
    indices = operand_def(BUFFER)
    out_values = operand_def(BUFFER)
    out_indices = operand_def(BUFFER)
    i_start_phase = operand_def(I32)
    tile_a = operand_def(IndexType)
    tile_b = operand_def(IndexType)
    is_group_end = operand_def(I1)
    read_from_output = operand_def(I1)
    idir = prop_def(IntegerAttr)
    i_end_phase = prop_def(IntegerAttr)
    is_group_start = prop_def(BoolAttr)

    def verify_(self) -> None:
        verify_compute_region(self)
        if not 0 <= self.i_end_phase.value.data <= 5:
            raise VerifyException(f"'{self.name}' op i_end_phase must be in [0, 5]")


@irdl_op_definition
class TileTopkMergeOp(IRDLOperation):
    """upstream's `d2m.tile_topk_merge` (see the module doc)."""

    name = "d2m.tile_topk_merge"
    values = operand_def(BUFFER)
    indices = operand_def(BUFFER)
    out_values = operand_def(BUFFER)
    out_indices = operand_def(BUFFER)
    m_iter = operand_def(I32)
    tile_a = operand_def(IndexType)
    tile_b = operand_def(IndexType)
    is_group_end = operand_def(I1)
    read_from_output = operand_def(I1)
    k = prop_def(IntegerAttr)
    is_group_start = prop_def(BoolAttr)

    def verify_(self) -> None:
        verify_compute_region(self)
        if self.k.value.data not in (1, 2, 4, 8, 16, 32, 64):
            raise VerifyException(f"'{self.name}' op k must be a power of two of at most 64")


@irdl_op_definition
class TileTopkRebuildOp(IRDLOperation):
    """upstream's `d2m.tile_topk_rebuild` (see the module doc)."""

    name = "d2m.tile_topk_rebuild"
    values = operand_def(BUFFER)
    indices = operand_def(BUFFER)
    out_values = operand_def(BUFFER)
    out_indices = operand_def(BUFFER)
    m_iter = operand_def(I32)
    tile_a = operand_def(IndexType)
    tile_b = operand_def(IndexType)
    is_group_end = operand_def(I1)
    read_from_output = operand_def(I1)
    idir = prop_def(IntegerAttr)
    k = prop_def(IntegerAttr)
    logk = prop_def(IntegerAttr)
    skip_second = prop_def(IntegerAttr)
    is_group_start = prop_def(BoolAttr)

    def verify_(self) -> None:
        verify_compute_region(self)
        if not 1 <= self.logk.value.data <= 6:
            raise VerifyException(f"'{self.name}' op logk must be in [1, 6]")


TOPK_TILE_OPS = (TileTopkLocalSortOp, TileTopkMergeOp, TileTopkRebuildOp)
TOPK_OPS = [TopkBlockOp, *TOPK_TILE_OPS]


def bufferize_topk_block(op: TopkBlockOp, buffer_type) -> None:
    """On buffers a `d2m.topk_block` writes its outputs, and what read its results reads them (its results the
    outputs' buffer types, as upstream's op keeps them)."""
    if not isinstance(op.out_values.type, MemRefType):
        return
    made = TopkBlockOp.create(operands=list(op.operands), result_types=[op.out_values.type, op.out_indices.type],
                              properties=dict(op.properties), attributes=dict(op.attributes))
    made.location = op.location
    op.parent_block().insert_op_before(made, op)
    for old, buffer in zip(op.results, (op.out_values, op.out_indices)):
        old.replace_all_uses_with(buffer)
    op.detach()
    op.erase()


TOPK_BUFFERIZE = {TopkBlockOp: bufferize_topk_block}
INDEX_BUFFER_ATTR, LANE_BUFFER_ATTR = "d2m.topk_index_buffer", "d2m.topk_lane_buffer"  # scratch roles
LANE_TILE_ROWS = 2  # the lane buffer's tile rows: more than one, or the arange's compute loop folds away

