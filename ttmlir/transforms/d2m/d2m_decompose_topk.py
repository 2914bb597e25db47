"""`--d2m-decompose-topk`: each `d2m.topk_block` (on buffers, inside a generic) written out as a merge tree of
`d2m.tile_topk_{local_sort,merge,rebuild}` ops over pairs of its shard's tiles (upstream's DecomposeTopk).

A block that generates its indices first builds them into the generic's index buffer (`d2m.topk_index_buffer`,
from `--d2m-insert-scratch-buffers`): a column-major `d2m.arange_block` of 32 elements into the lane buffer puts
row i's index i in column 0, then each tile is that column spread over the tile (`d2m.tile_bcast` col) plus the
tile's first index, (band offset + tile) * 32 less the core offset the arange folds in (`d2m.tile_add`). A block
given its indices (a merge stage) uses them as they are.

Then, for each non-target tile row (an `scf.for`), the reduction's `n` tiles are merged:
- k <= 32: a tree of ceil(log2 n) levels, level m pairing tiles (t, t + 2^m) for t in steps of 2^(m+1): each pair
  sorted as one bitonic 64-run, merged so tile t holds the 32 best, and on the last level the best k sorted again
  (rebuilt; not when k = 32 and there is one level: the merge already leaves exactly k). Level 0 and the last
  level are written out, the levels between run in an `scf.for`; a ragged n (not a power of two) sorts every level
  from phase 0 and sorts an odd last tile on its own at level 0.
- k > 32: a left fold keeping the best k in tiles (0, 1): those two sorted, merged and rebuilt, then each complete
  pair (t, t + 1) built the same way and combined with (0, 1) in three sort-merge-rebuilds ((0, t), (1, t + 1),
  (1, t)), an odd last tile primed by a sort of its own and combined in two ((0, tail), (1, tail))."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import BoolAttr, IndexType, IntegerAttr, IntegerType, MemRefType, ModuleOp, UnitAttr, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_arange import ArangeBlockOp
from ttmlir.dialects.d2m_dst import UnpackStallOnPackOp
from ttmlir.dialects.d2m_index import CoreIndexOp
from ttmlir.dialects.d2m_scratch import ScratchInitOp
from ttmlir.dialects.d2m_tile_bcast import TileBcastOp, TileBcastTypeAttr
from ttmlir.dialects.d2m_topk import (INDEX_BUFFER_ATTR, LANE_BUFFER_ATTR, LANE_TILE_ROWS, TileTopkLocalSortOp,
                                      TileTopkMergeOp, TileTopkRebuildOp, TopkBlockOp)
from ttmlir.errors import PassFailure

TILE = 32
I1 = IntegerType(1)
# a tile paired with itself (an odd last tile, primed) sorts each copy as a 32-run: a 64-run over the two copies
# would leave the copy packed last holding the lower half of it twice
TAIL_SORT_END_PHASE = 4


def floor_log2(n: int) -> int:
    return n.bit_length() - 1


class _Body:
    """Ops appended in order to a list (a block's body being written)."""

    def __init__(self, ops: list[Operation]):
        self.ops = ops

    def add(self, op: Operation) -> SSAValue | None:
        self.ops.append(op)
        return op.results[0] if op.results else None

    def index(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IndexType())))

    def i32(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, i32)))

    def i1(self, value: bool) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(int(value), I1)))

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add(arith.MuliOp(a, b))

    def addi(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add(arith.AddiOp(a, b))

    def loop(self, lb: SSAValue, ub: SSAValue, step: SSAValue, body, attributes: dict | None = None) -> scf.ForOp:
        """An `scf.for` whose body `body(inner, iv)` writes."""
        block = Block(arg_types=[IndexType()])
        inner: list[Operation] = []
        body(_Body(inner), block.args[0])
        block.add_ops([*inner, scf.YieldOp()])
        loop = scf.ForOp(lb, ub, step, [], Region(block))
        loop.attributes.update(attributes or {})
        self.add(loop)
        return loop


def _index_buffers(generic: d2m.GenericOp) -> tuple[SSAValue, SSAValue] | None:
    found = {}
    for op in generic.regions[0].walk():
        if isinstance(op, memref.AllocOp):
            for role in (INDEX_BUFFER_ATTR, LANE_BUFFER_ATTR):
                if role in op.attributes:
                    found[role] = op.memref
    if len(found) != 2:
        return None
    return found[INDEX_BUFFER_ATTR], found[LANE_BUFFER_ATTR]


def _build_indices(b: _Body, op: TopkBlockOp, generic: d2m.GenericOp, index_buf: SSAValue, lane_buf: SSAValue,
                   dim: int, band_tiles: int) -> None:
    """This core's index buffer (see the module doc)."""
    shape = op.input_values.type.get_shape()
    tile = op.out_indices.type.get_element_type()
    scalar = IntegerType(32)
    arange = ArangeBlockOp.create(operands=[op.scratch_idx_tile, lane_buf], result_types=[lane_buf.type], properties={
        "num_elements": IntegerAttr(TILE, 64), "start": IntegerAttr(0, 64), "step": IntegerAttr(1, 64),
        "colMajor": BoolAttr(True, 1)})
    b.add(arange)
    b.add(UnpackStallOnPackOp.create())  # the loop below reads the lane tile back out of L1
    grid = generic.attributes["grid"].data.shape
    total_rows = LANE_TILE_ROWS * grid[-2]
    core = [b.add(CoreIndexOp.create(properties={"dim": IntegerAttr(d, 64)}, result_types=[IndexType()]))
            for d in (0, 1)]
    # the arange folds this core's grid position into every element; each tile's offset takes it back out
    arange_base = b.addi(b.mul(core[0], b.index(LANE_TILE_ROWS * TILE)), b.mul(core[1], b.index(total_rows * TILE * TILE)))
    band_offset = b.mul(b.add(CoreIndexOp.create(properties={"dim": IntegerAttr(dim, 64)},
                                                 result_types=[IndexType()])), b.index(band_tiles))
    zero, one = b.index(0), b.index(1)
    outer_tiles, inner_tiles = (shape[1], shape[0]) if dim == 0 else (shape[0], shape[1])

    def outer(o: _Body, outer_iv: SSAValue) -> None:
        def inner(i: _Body, red: SSAValue) -> None:
            c0 = i.index(0)
            lane = i.add(memref.LoadOp.get(lane_buf, [c0, c0]))
            rows = i.add(TileBcastOp.create(operands=[lane], result_types=[tile],
                                            properties={"bcast_type": TileBcastTypeAttr("col")}))
            offset = i.add(arith.SubiOp(i.mul(i.addi(band_offset, red), i.index(TILE)), arange_base))
            cast = i.add(arith.IndexCastOp(offset, scalar))
            indices = i.add(d2m.TILE_OP_CLASSES["tile_add"].create(operands=[rows, cast], result_types=[tile]))
            at = [red, outer_iv] if dim == 0 else [outer_iv, red]
            i.add(memref.StoreOp.get(indices, index_buf, at))

        # tagged as upstream tags it: neither linalg-to-affine nor the op scheduler sees a loop written directly
        o.loop(o.index(0), o.index(inner_tiles), o.index(1), inner,
               {"d2m.linalg_root": UnitAttr(), "d2m.scheduled": UnitAttr()})

    b.loop(zero, b.index(outer_tiles), one, outer)
    b.add(UnpackStallOnPackOp.create())  # the merge tree unpacks the packed index tiles straight from L1


@dataclass
class _Pair:
    """What every tile op of one block shares: its buffers."""

    values: SSAValue
    indices: SSAValue
    out_values: SSAValue
    out_indices: SSAValue

    def ops(self, b: _Body, kind: type, dynamic: list[SSAValue], tile_a: SSAValue, tile_b: SSAValue, group_end: bool,
            from_output: SSAValue, group_start: bool = True, **attrs: int) -> None:
        properties = {name: IntegerAttr(v, i32) for name, v in attrs.items()}
        properties["is_group_start"] = BoolAttr(group_start, 1)
        b.add(kind.create(operands=[self.values, self.indices, self.out_values, self.out_indices, *dynamic, tile_a,
                                    tile_b, b.i1(group_end), from_output], properties=properties))


def decompose(op: TopkBlockOp) -> None:
    """`op` written out (see the module doc)."""
    t = op.input_values.type
    if not isinstance(t, MemRefType):
        raise PassFailure(op, "d2m.topk_block is decomposed on buffers (run after bufferization)")
    shape = t.get_shape()
    if len(shape) != 2:
        raise PassFailure(op, "d2m.topk_block is decomposed on a 2-d shard of tiles")
    generic = op.parent_op()
    while generic is not None and not isinstance(generic, d2m.GenericOp):
        generic = generic.parent_op()
    if generic is None:
        raise PassFailure(op, "d2m.topk_block is inside a d2m.generic")
    k, dim = op.k.value.data, op.dim.value.data
    logk = floor_log2(k)
    n = shape[dim]
    ops: list[Operation] = []
    b = _Body(ops)
    indices = op.scratch_idx_tile
    if op.generate_indices is not None and op.generate_indices.value.data:
        buffers = _index_buffers(generic)
        if buffers is None:
            raise PassFailure(op, "d2m.topk_block generating its indices needs the index and lane buffers "
                                  "(run --d2m-insert-scratch-buffers first)")
        for anchor in [o for o in generic.regions[0].walk() if isinstance(o, ScratchInitOp) and
                       o.operands[0] in buffers]:
            anchor.detach()  # a leftover anchor would be read as the spill pool
            anchor.erase()
        _build_indices(b, op, generic, *buffers, dim, n)
        indices = buffers[0]
    pair = _Pair(op.input_values, indices, op.out_values, op.out_indices)
    nt_count = shape[1 - dim]
    red_stride, nt_stride = (1, n) if dim == 1 else (nt_count, 1)
    zero, one = b.index(0), b.index(1)
    zero32 = b.i32(0)
    yes, no = b.i1(True), b.i1(False)
    n_index = b.index(n)

    def nt_body(nb: _Body, nt: SSAValue) -> None:
        nt_offset = nb.mul(nt, nb.index(nt_stride))

        def flat(body: _Body, r: SSAValue) -> SSAValue:
            return body.addi(body.mul(r, body.index(red_stride)), nt_offset)

        def sort_merge_rebuild(body: _Body, a: SSAValue, c: SSAValue, from_output: SSAValue) -> None:
            pair.ops(body, TileTopkLocalSortOp, [zero32], a, c, False, from_output, idir=0, i_end_phase=logk - 1)
            pair.ops(body, TileTopkMergeOp, [zero32], a, c, False, from_output, group_start=False, k=k)
            pair.ops(body, TileTopkRebuildOp, [zero32], a, c, True, from_output, group_start=False, idir=0, k=k,
                     logk=logk, skip_second=0)

        if k > TILE:
            acc_win, acc_lose = flat(nb, zero), flat(nb, one)
            sort_merge_rebuild(nb, acc_win, acc_lose, no)
            complete = n - n % 2
            if complete > 2:
                def fold(fb: _Body, tile: SSAValue) -> None:
                    nxt = fb.addi(tile, one)
                    t0, t1 = flat(fb, tile), flat(fb, nxt)
                    win, lose = flat(fb, zero), flat(fb, one)
                    sort_merge_rebuild(fb, t0, t1, no)  # the right pair on its own
                    sort_merge_rebuild(fb, win, t0, yes)  # the best of both winners into tile 0
                    sort_merge_rebuild(fb, lose, t1, yes)  # the best of both losers into tile 1
                    sort_merge_rebuild(fb, lose, t0, yes)  # ranks k/2..k: best losers against the winners' rest

                nb.loop(nb.index(2), nb.index(complete), nb.index(2), fold)
            if n % 2:
                tail = flat(nb, nb.index(n - 1))
                pair.ops(nb, TileTopkLocalSortOp, [zero32], tail, tail, True, no, idir=0,
                         i_end_phase=TAIL_SORT_END_PHASE)
                sort_merge_rebuild(nb, flat(nb, zero), tail, yes)
                sort_merge_rebuild(nb, flat(nb, one), tail, yes)
            return
        power = n & (n - 1) == 0
        levels = floor_log2(n) if power else floor_log2(n) + 1
        ragged = not power

        def level(lb: _Body, m: SSAValue, first: bool, last: bool) -> None:
            m32 = lb.add(arith.IndexCastOp(m, i32))
            distance = lb.add(arith.ShLIOp(lb.index(1), m))
            upper = lb.add(arith.SubiOp(n_index, distance))
            step = lb.mul(distance, lb.index(2))
            rebuild = last and (k < TILE or not first)

            def pair_body(pb: _Body, base: SSAValue) -> None:
                a, c = flat(pb, base), flat(pb, pb.addi(base, distance))
                from_output = no if first else yes
                start = pb.i32(0) if ragged else m32
                pair.ops(pb, TileTopkLocalSortOp, [start], a, c, False, from_output, idir=0, i_end_phase=4)
                pair.ops(pb, TileTopkMergeOp, [m32], a, c, not rebuild, from_output, group_start=False, k=TILE)
                if rebuild:
                    pair.ops(pb, TileTopkRebuildOp, [m32], a, c, True, from_output, group_start=False, idir=0, k=k,
                             logk=5, skip_second=1)
                if first and ragged and n % 2:  # the odd last tile, sorted on its own to pair at level 1
                    tail = flat(pb, pb.index(n - 1))
                    pair.ops(pb, TileTopkLocalSortOp, [pb.i32(0)], tail, tail, True, no, idir=0,
                             i_end_phase=TAIL_SORT_END_PHASE)

            lb.loop(zero, upper, step, pair_body)

        level(nb, zero, True, levels == 1)
        if levels > 1:
            nb.loop(one, nb.index(levels - 1), one, lambda mb, m: level(mb, m, False, False))
            level(nb, nb.index(levels - 1), False, True)

    b.loop(zero, b.index(nt_count), one, nt_body)
    block = op.parent_block()
    block.insert_ops_before(ops, op)
    for result, buffer in zip(op.results, (op.out_values, op.out_indices)):
        result.replace_all_uses_with(buffer)
    op.detach()
    op.erase()


@dataclass(frozen=True)
class D2MDecomposeTopkPass(ModulePass):
    """Each `d2m.topk_block` as its merge tree (see the module doc)."""

    name: ClassVar[str] = "d2m-decompose-topk"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for block in [o for o in op.walk() if isinstance(o, TopkBlockOp)]:
            decompose(block)
