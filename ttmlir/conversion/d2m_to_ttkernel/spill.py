"""Which device tensors live in DRAM, chosen before their programs are built (a DRAM operand's reader differs from
an L1 one's). A spilled tensor keeps its grid and shards (its programs still compute on that grid) but is kept
interleaved over the DRAM banks, and the programs using it move it through their CBs (a matmul's blocks of K step
by step, other programs' copies a tile at a time when whole shards would not fit: see `ProgramKernels.launch` and
`launch_matmul`), as upstream's d2m-allocate spills to DRAM what L1 cannot hold. Two rules, in order:

1. a tensor whose shard alone takes more than half of a core's free L1 cannot share the core with the CBs of the
   programs using it: it lives in DRAM (`spill_large`);
2. the rest stay in L1 while the buffers live at once fit a core's free L1, tensors and CBs alike, placed as
   `convert-d2m-to-ttmetal` places them (each from its creation to its last use, packed: `addresses.py`). Where
   those live at once do not fit, the tensors then in L1 are spilled one by one, the one whose next use is
   furthest away first (Belady's rule, as register allocators spill; the largest of equals), until they do
   (`l1_spills`, on the function with its kernels built: CBs are known only then). The function is then built
   again with those tensors in DRAM, until nothing more is spilled.

Function arguments get no rule of their own: the frontend writes a host tensor to the device where it is used, so
a weight is live only around its program and, when L1 is short there, spilled like any other tensor.

A tensor kept at its rank, or a TTNN tensor, stays where it is."""

from __future__ import annotations

import dataclasses
from typing import Callable, Protocol

from xdsl.dialects.builtin import TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation, SSAValue

from ttmlir import hardware
from ttmlir.dialects import d2m, ttcore
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import DTYPES
from ttmlir.conversion.d2m_to_ttkernel.layouts import device_layout
from ttmlir.conversion.d2m_to_ttmetal.addresses import aligned, pack

MOVES = ("d2m.to_layout", "ttir.to_layout", "d2m.to_device", "d2m.to_host")


class Builder(Protocol):
    """What builds one function's programs: folds its moves, then lowers its generics to kernels."""

    def fold_moves(self) -> None: ...

    def lower(self) -> None: ...


def _dram_type(t: TensorType) -> TensorType:
    layout = t.encoding.data
    moved = dataclasses.replace(layout, memory_space="dram", memory_layout="interleaved")
    return TensorType(t.element_type, t.get_shape(), ttcore.MetalLayoutAttr(moved))


def _same_tensor(value: SSAValue) -> list[SSAValue] | None:
    """The values standing for the tensor `value` makes (a move's or a generic's result written into it, a store's
    result inside a generic, a move of it into its own layout, a view of it: DRAM pages are found by their tile's place in the tensor, whatever grid
    the view gives it), or None if a TTNN tensor is cast to it (its memory is TTNN's)."""
    seen, todo = [], [value]
    while todo:
        v = todo.pop()
        seen.append(v)
        for use in v.uses:
            op = use.operation
            if op.name == "ttir.ttnn_metal_layout_cast":
                return None
            made = []
            if isinstance(op, d2m.ToLayoutOp) and use.index == 1 or isinstance(op, d2m.ViewLayoutOp):
                made = list(op.results)
            elif isinstance(op, d2m.ToLayoutOp) and op.operands[1].type == v.type:  # moved into its own layout:
                made = [op.operands[1], *op.results]  # the same tensor, not an L1 copy of it
            elif isinstance(op, d2m.GenericOp) and v in op.outputs:
                made = [op.results[list(op.outputs).index(v)]]
            elif isinstance(op, d2m.RemoteStoreOp) and v is op.dest:
                made = list(op.results)
            elif isinstance(op, d2m.YieldOp):
                continue  # the generic's result, reached through its output
            todo += [r for r in made if r not in seen]
    return seen


def _on_device(value: SSAValue) -> bool:
    return isinstance(getattr(value.type, "encoding", None), ttcore.MetalLayoutAttr)


def _buffer_users(value: SSAValue) -> list[Operation]:
    """The ops using the buffer `value` makes once the programs are built, as the host program places it: through
    the results of generics and spatial ops writing into it, views and masks of it, and the moves left (a host
    tensor moved into it is it; a device tensor moved into its own layout is the moved tensor, the target of such
    a move never made)."""
    users, seen, todo = [], [], [value]
    while todo:
        v = todo.pop()
        seen.append(v)
        for use in v.uses:
            op = use.operation
            made = []
            if op.name in MOVES:
                from_device = _on_device(op.operands[0])
                if use.index == 1 and from_device:
                    continue
                made = list(op.results) if (use.index == 0) == from_device else []
            elif isinstance(op, (d2m.ViewLayoutOp, d2m.MaskOp)):
                made = list(op.results)
            elif isinstance(op, d2m.GenericOp) and v in op.outputs:
                made = [op.results[list(op.outputs).index(v)]]
            elif isinstance(op, d2m.SpatialYieldOp):
                spatial = op.parent_op()
                made = [spatial.results[spatial.regions.index(op.parent_region())]]
            users.append(op)
            todo += [r for r in made if r not in seen]
    return users


def spillable(func: FuncOp) -> list[d2m.EmptyOp]:
    """The `d2m.empty`s of `func` making a tiled L1 tensor of a 2-d grid that may move to DRAM (its virtual grid, if
    any, still places the cores computing it)."""
    result = []
    for empty in [op for op in func.walk() if isinstance(op, d2m.EmptyOp)]:
        t = empty.result.type
        layout = getattr(t, "encoding", None)
        if isinstance(layout, ttcore.MetalLayoutAttr) and layout.data.memory_space == "l1" and \
                len(t.get_shape()) == 4 and isinstance(t.element_type, ttcore.TileType) and \
                _same_tensor(empty.result) is not None:
            result.append(empty)
    return result


def spill(empty: d2m.EmptyOp) -> None:
    """The tensor `empty` makes retyped into DRAM, with every value standing for it."""
    for value in _same_tensor(empty.result):
        value._type = _dram_type(value.type)


def spill_large(empties: list[d2m.EmptyOp], chip: dict) -> None:
    """Rule 1: each of `empties` whose shard takes more than half a core's free L1 spilled."""
    limit = (int(chip["l1_size"]) - int(chip["l1_unreserved_base"])) // 2
    for empty in empties:
        t = empty.result.type
        sy, sx = t.get_shape()[2:]
        if sy * sx * hardware.tile_bytes(DTYPES.get(t.element_type.data_type.data.value, "f32")) > limit:
            spill(empty)


def l1_spills(block: Block, chip: dict, device_grid: tuple[int, int], candidates: set[d2m.EmptyOp]
              ) -> list[d2m.EmptyOp]:
    """Rule 2 on a function whose programs are built (its body `block`): its L1 buffers' lifetimes as the host
    program has them; wherever those live at once exceed the budget, tensors of `candidates` then live spilled
    (furthest next use first) until they do not. The budget is a core's free L1, less a little each time the
    buffers kept do not pack into it (`addresses.pack`). The tensors spilled, in order."""
    ops = list(block.ops)
    position = {op: i for i, op in enumerate(ops)}

    def top(op: Operation) -> int:
        while op.parent_block() is not block:
            op = op.parent_op()
        return position[op]

    uses: dict[d2m.EmptyOp, list[int]] = {}
    sizes: dict[d2m.EmptyOp, int] = {}
    for op in ops:
        layout = getattr(op.results[0].type, "encoding", None) if isinstance(op, d2m.EmptyOp) else None
        if not isinstance(layout, ttcore.MetalLayoutAttr) or layout.data.memory_space != "l1":
            continue
        at = sorted({top(user) for user in _buffer_users(op.result)})
        if at:  # a buffer nothing uses is not made
            shard = device_layout(op.result, op, device_grid)
            uses[op], sizes[op] = [position[op], *at], aligned(shard.tiles * shard.page)
    base, limit = int(chip["l1_unreserved_base"]), int(chip["l1_size"])
    budget = limit - base
    while True:
        spilled, kept = _sweep(uses, sizes, candidates, budget, len(ops))
        _, failed = pack({e: (uses[e][0], uses[e][-1], sizes[e]) for e in kept}, base, limit)
        if not failed or budget <= 0:
            return spilled
        budget -= (limit - base) // 32


def _sweep(uses: dict[d2m.EmptyOp, list[int]], sizes: dict[d2m.EmptyOp, int], candidates: set[d2m.EmptyOp],
           budget: int, end: int) -> tuple[list[d2m.EmptyOp], list[d2m.EmptyOp]]:
    """The buffers made in program order, spilling candidates where the live ones exceed `budget`: those spilled
    and those kept."""
    spilled: list[d2m.EmptyOp] = []
    live: dict[d2m.EmptyOp, None] = {}  # in the order made, so that ties are broken alike on every run
    total = 0
    for empty in sorted(uses, key=lambda e: uses[e][0]):
        index = uses[empty][0]
        for gone in [e for e in live if uses[e][-1] < index]:
            del live[gone]
            total -= sizes[gone]
        live[empty] = None
        total += sizes[empty]
        while total > budget:
            held = [e for e in live if e in candidates]
            if not held:
                break  # nothing left to spill here: the host program reports it
            victim = max(held, key=lambda e: (next((i for i in uses[e] if i > index), end), sizes[e]))
            spilled.append(victim)
            del live[victim]
            total -= sizes[victim]
    return spilled, [e for e in uses if e not in spilled]


def lower_within_l1(func: FuncOp, chip: dict, device_grid: tuple[int, int], builder: Callable[[], "Builder"],
                    undo: Callable[[], None]) -> None:
    """`func`'s programs built (by a new `builder()`: its moves folded, then its programs lowered) with its tensors
    placed by both rules: built, checked (`l1_spills`), and while that spills more, `undo` (dropping the kernels
    built) and built again from the function as it was with all tensors spilled so far in DRAM."""
    pristine = func.clone()
    chosen: set[int] = set()  # positions among the spillable empties of the function with its moves folded
    while True:
        build = builder()
        build.fold_moves()
        empties = spillable(func)
        spill_large(empties, chip)
        for n in chosen:
            spill(empties[n])
        number = {e: n for n, e in enumerate(empties) if n not in chosen}
        build.lower()
        more = {number[e] for e in l1_spills(func.body.block, chip, device_grid, set(number))}
        if not more:
            return
        chosen |= more
        undo()
        fresh = pristine.clone()
        func.body.detach_block(func.body.block)
        func.body.add_block(fresh.body.detach_block(fresh.body.block))
