"""The program of a topk generic (a `d2m.topk_block`), on each core of its grid: the reader hands over the input shard
(and a merge stage's indices), the compute kernel builds a leaf's index buffer and runs the merge tree
`--d2m-decompose-topk` writes (the same groups, in the same order, unrolled), the writer waits for the values and
indices (and writes DRAM pages); the reader and the writer are one kernel when at most one of those moves data over
the NoC (`ProgramKernels.data_movement`).

A leaf's index buffer (an L1 buffer of the shard's tiles, si32): the scratch tile filled with its row-major
indices (`experimental::fill_arange_tile`), transposed (column 0 then holds each row's index), and per tile that
column spread over the tile (`unary_bcast<COL>`) plus the tile's first index along the reduction, its core's band
offset included (`add_unary_tile_int32`). A merge stage reads the indices it is given. Each group of the tree loads its tile pair (values, then indices) into dst 0..3 from the
input and the index buffer, or (read from output) from the work buffers, runs its topk calls and packs the pair
into the work buffers.

The tree works in two L1 buffers of the shard (values and indices), CBs read back by later groups: between groups
they are full (pushed); a group reading them waits for them, and before it packs it frees and reserves them again
(the ring of one shard comes back to the same pages), pushing them once packed. Once the tree is done each tile is
copied into the outputs, which are pushed once, for the writer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, i32
from xdsl.ir import SSAValue

from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import KernelOps, Placed, ShardLayout
from ttmlir.conversion.d2m_to_ttkernel.programs import Arg, Launch, ProgramKernels, dm_arg_list
from ttmlir.dialects import d2m, ttkernel
from ttmlir.dialects.d2m_topk import TopkBlockOp
from ttmlir.errors import PassFailure
from ttmlir.transforms.d2m.d2m_decompose_topk import TAIL_SORT_END_PHASE, floor_log2

TILE = 32
# the program's CB ports: a leaf's builds its index buffer from the lane tile; a merge stage is given its indices
LEAF_PORTS = {name: n for n, name in enumerate(("input", "lane", "index", "work_values", "work_indices", "values",
                                                 "indices"))}
MERGE_PORTS = {name: n for n, name in enumerate(("input", "index", "work_values", "work_indices", "values",
                                                  "indices"))}


@dataclass
class Group:
    """Tiles (a, b) of the reduction loaded, its topk calls run on them, packed back: each call (name, operands)."""

    a: int
    b: int
    from_output: bool
    calls: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)


def merge_groups(n: int, k: int) -> list[Group]:
    """The groups of `d2m-decompose-topk`'s tree over `n` reduction tiles (see that pass), in order."""
    logk = floor_log2(k)
    if k > TILE:
        def smr(a: int, b: int, from_output: bool) -> Group:
            return Group(a, b, from_output, [("topk_local_sort", (0, logk - 1, 0)), ("topk_merge", (0, k)),
                                             ("topk_rebuild", (0, 0, k, logk, 0))])

        groups = [smr(0, 1, False)]
        for t in range(2, n - n % 2, 2):
            groups += [smr(t, t + 1, False), smr(0, t, True), smr(1, t + 1, True), smr(1, t, True)]
        if n % 2:
            tail = n - 1
            groups += [Group(tail, tail, False, [("topk_local_sort", (0, TAIL_SORT_END_PHASE, 0))]),
                       smr(0, tail, True), smr(1, tail, True)]
        return groups
    power = n & (n - 1) == 0
    levels = floor_log2(n) + (0 if power else 1)
    groups = []
    for m in range(levels):
        first, last = m == 0, m == levels - 1
        rebuild = last and (k < TILE or not first)
        for base in range(0, n - (1 << m), 2 << m):
            calls = [("topk_local_sort", (0, 4, 0 if not power else m)), ("topk_merge", (m, TILE))]
            if rebuild:
                calls.append(("topk_rebuild", (0, m, k, 5, 1)))
            groups.append(Group(base, base + (1 << m), not first, calls))
        if first and not power and n % 2:  # the odd last tile, a sorted run of its own for level 1
            groups.append(Group(n - 1, n - 1, False, [("topk_local_sort", (0, 4, 0))]))
    return groups


def _index_buffer(ops: KernelOps, cbs: dict[str, SSAValue], layout: ShardLayout, dim: int) -> None:
    """The index buffer (see the module doc): a band's indices start at its core's first reduction tile."""
    index = IndexType()
    one, zero = ops.const(1), ops.const(0, index)
    lane, buffer = cbs["lane"], cbs["index"]
    shard = layout.shard
    first = ops.const(0)
    if layout.grid[dim] > 1:  # banded: this core's place along the reduction
        y, x = ops.coords(layout)
        band = x if dim == 1 else y
        first = ops.emit(arith.IndexCastOp(ops.emit(arith.MuliOp(band, ops.const(shard[dim] * TILE, index))), i32))
    ops.call("cb_reserve_back", lane, one)
    ops.call("experimental.fill_arange_tile", lane)
    ops.call("cb_push_back", lane, one)
    ops.call("cb_wait_front", lane, one)
    ops.call("tile_regs_acquire")
    ops.call("transpose_wh_init", lane, lane)
    ops.call("transpose_wh_tile", lane, zero, zero)
    ops.call("tile_regs_commit")
    ops.call("tile_regs_wait")
    ops.call("cb_pop_front", lane, one)
    ops.call("cb_reserve_back", lane, one)
    ops.call("pack_tile", zero, lane, zero, out_of_order=IntegerAttr(0, 1))
    ops.call("tile_regs_release")
    ops.call("cb_push_back", lane, one)
    ops.call("cb_wait_front", lane, one)
    tiles = shard[0] * shard[1]
    count = ops.const(tiles)
    ops.call("cb_reserve_back", buffer, count)
    col = ttkernel.BcastTypeAttr(ttkernel.BcastTypeAttr.enum_type("col"))
    ops.call("unary_bcast_init", lane, buffer, bcast_type=col)
    for r in range(shard[dim]):
        for nt in range(shard[1 - dim]):
            flat = r * shard[1] + nt if dim == 0 else nt * shard[1] + r
            ops.call("tile_regs_acquire")
            ops.call("unary_bcast", lane, zero, zero, bcast_type=col)
            ops.call("binop_with_scalar_tile_init")
            ops.call("add_unary_tile_int32", zero, ops.emit(arith.AddiOp(first, ops.const(r * TILE))))
            ops.call("tile_regs_commit")
            ops.call("tile_regs_wait")
            ops.call("pack_tile", zero, buffer, ops.const(flat, index), out_of_order=IntegerAttr(0, 1))
            ops.call("tile_regs_release")
    ops.call("cb_push_back", buffer, count)
    ops.call("cb_wait_front", buffer, count)


def _run_group(ops: KernelOps, cbs: dict[str, SSAValue], group: Group, a: int, b: int, count: SSAValue) -> None:
    """One group on flat tiles (a, b) (see the module doc)."""
    index = IndexType()
    values, indices = cbs["work_values"], cbs["work_indices"]
    sources = (values, indices) if group.from_output else (cbs["input"], cbs["index"])
    if group.from_output:
        ops.emit(ttkernel.UnpackStallOnPackOp.create())  # the packer's writes of the group before land first
        for cb in (values, indices):
            ops.call("cb_wait_front", cb, count)
    dst = [ops.const(i, index) for i in range(4)]
    ops.call("tile_regs_acquire")
    ops.call("topk_tile_init")
    ops.call("init_sfpu", sources[0], values)
    for cb, slots in zip(sources, ((dst[0], dst[1]), (dst[2], dst[3]))):
        ops.call("copy_tile_init", cb)
        ops.call("copy_tile", cb, ops.const(a, index), slots[0])
        ops.call("copy_tile", cb, ops.const(b, index), slots[1])
    for name, args in group.calls:
        ops.call(name, dst[0], *(ops.const(v) for v in args))
    ops.call("tile_regs_commit")
    ops.call("tile_regs_wait")
    for cb in (values, indices):
        if not group.from_output:
            ops.call("cb_wait_front", cb, count)
        ops.call("cb_pop_front", cb, count)
        ops.call("cb_reserve_back", cb, count)
    for cb, slots in zip((values, indices), ((dst[0], dst[1]), (dst[2], dst[3]))):
        ops.call("pack_reconfig_data_format", cb)
        ops.call("pack_tile", slots[0], cb, ops.const(a, index), out_of_order=IntegerAttr(1, 1))
        ops.call("pack_tile", slots[1], cb, ops.const(b, index), out_of_order=IntegerAttr(1, 1))
    ops.call("tile_regs_release")
    for cb in (values, indices):
        ops.call("cb_push_back", cb, count)


def _copy_out(ops: KernelOps, cbs: dict[str, SSAValue], tiles: int, count: SSAValue) -> None:
    """The work buffers' tiles into the outputs."""
    index = IndexType()
    for cb in (cbs["work_values"], cbs["work_indices"]):
        ops.emit(ttkernel.UnpackStallOnPackOp.create())
        ops.call("cb_wait_front", cb, count)
    for cb in (cbs["values"], cbs["indices"]):
        ops.call("cb_reserve_back", cb, count)
    for t in range(tiles):
        at = ops.const(t, index)
        ops.call("tile_regs_acquire")
        for slot, cb in enumerate((cbs["work_values"], cbs["work_indices"])):
            ops.call("copy_tile_init", cb)
            ops.call("copy_tile", cb, at, ops.const(slot, index))
        ops.call("tile_regs_commit")
        ops.call("tile_regs_wait")
        for slot, cb in enumerate((cbs["values"], cbs["indices"])):
            ops.call("pack_reconfig_data_format", cb)
            ops.call("pack_tile", ops.const(slot, index), cb, at, out_of_order=IntegerAttr(1, 1))
        ops.call("tile_regs_release")
    for cb in (cbs["values"], cbs["indices"]):
        ops.call("cb_push_back", cb, count)


def launch_topk(builder: ProgramKernels, generic: d2m.GenericOp, block: TopkBlockOp) -> Launch:
    """The program (see the module doc)."""
    leaf = block.generate_indices is not None and block.generate_indices.value.data
    source, given = generic.inputs
    values, indices = generic.outputs
    layouts = [builder.layout_of(v) for v in (source, given, values, indices)]
    layout = layouts[0]
    if any(t.grid != layout.grid or t.shard != layout.shard for t in (layouts[2], layouts[3])) or \
            (not leaf and (layouts[1].grid, layouts[1].shard) != (layout.grid, layout.shard)):
        raise PassFailure(generic, "a topk's values and indices are sharded as its input")
    dim, k = block.dim.value.data, block.k.value.data
    shard = layout.shard
    if shard[dim] < 2:
        raise PassFailure(generic, "a topk's shard holds at least two tiles of its reduction")
    work = [builder.l1_buffer(layout, shard, dtype, generic)
            for dtype in (("si32",) if leaf else ()) + (layouts[2].dtype, "si32")]
    buffers = [source, given, *work, values, indices]
    cbs = [builder.cb_of(source, generic), builder.cb_of(given, generic), *work,
           builder.cb_of(values, generic), builder.cb_of(indices, generic)]
    operands = [layouts[0], layouts[1], *(builder.layout_of(w) for w in work), layouts[2], layouts[3]]
    at = LEAF_PORTS if leaf else MERGE_PORTS
    cb_types = [ttkernel.CBType(ttkernel.IntAttr(t.tiles), t.tile) for t in operands]
    read = [at["input"]] if leaf else [at["input"], at["index"]]  # a merge stage's indices come in too
    fetched = [j for j in read if operands[j].memory == "dram"]
    outs = (at["values"], at["indices"])
    written = [j for j in outs if operands[j].memory == "dram"]

    def write(ops: KernelOps, arg: Callable[[Arg], int]) -> None:
        for j in outs:
            builder.dm.write_output(ops, cb_types[j], operands[j], arg(("cb_port", j)),
                                    arg(("buffer_address", j)) if j in written else 0)

    movers = builder.data_movement(
        operands, dm_arg_list(read, fetched),
        lambda ops, arg: builder.dm.read_inputs(ops, [cb_types[j] for j in read],
                                                [Placed(buffers[j], operands[j]) for j in read], layout,
                                                [None] * len(read)),
        dm_arg_list(outs, written), write, len(fetched) + len(written), bool(written))
    compute = KernelOps()
    ports = {name: compute.ct_arg(j, cb_types[j]) for name, j in at.items()}
    count = compute.const(layout.tiles)
    compute.call("cb_wait_front", ports["input"], count)
    for cb in (ports["work_values"], ports["work_indices"]):  # full between groups (see the module doc)
        compute.call("cb_reserve_back", cb, count)
        compute.call("cb_push_back", cb, count)
    if leaf:
        _index_buffer(compute, ports, layout, dim)
    else:
        compute.call("cb_wait_front", ports["index"], count)
    reduction, others = shard[dim], shard[1 - dim]
    for nt in range(others):
        def flat(r: int) -> int:
            return r * shard[1] + nt if dim == 0 else nt * shard[1] + r

        for group in merge_groups(reduction, k):
            _run_group(compute, ports, group, flat(group.a), flat(group.b), count)
    _copy_out(compute, ports, layout.tiles, count)
    compute_thread = d2m.ThreadAttr.get("compute", builder.compute_kernel(compute, list(range(len(cbs)))))
    return Launch(buffers, cbs, [*movers, compute_thread], outputs=2)
