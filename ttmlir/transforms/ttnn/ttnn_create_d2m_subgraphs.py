"""`--ttnn-create-d2m-subgraphs`: chains of elementwise TTNN ops become `ttnn.d2m_subgraph` ops, each running a
private function holding the chain, for D2M to compile into fused kernels.

A group grows backwards from an exit (an elementwise op none of whose readers is elementwise): a producer joins
when it is elementwise and every reader of it is already in the group, so no value escapes from the middle of a
group and the group has one result, its exit's. Groups of one op are left alone. Exits are taken per block from
the last op up (nested blocks first), and groups are numbered in that order (`@d2m_subgraph_<n>`).

The op takes the group's outside inputs and a `ttnn.empty` per result to write into, and stands after the last
op defining one of its inputs; the function is added at the end of the module holding the group."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.dialects.ttnn_d2m_subgraph import D2MSubgraphOp
from ttmlir.ir.outline import outline_function
from ttmlir.transforms.ttnn.ttnn_utils import device_of, ttnn_empty

# the TTNN ops D2M compiles as elementwise tile math (upstream's list)
FUSABLE = frozenset((
    "abs cbrt ceil sign cos exp erf erfc floor gelu isfinite logical_not bitwise_not neg tan tanh reciprocal relu "
    "sin sqrt rsqrt sigmoid hardsigmoid silu mish log log1p expm1 "
    "add divide multiply subtract eq ne ge le lt gt logical_and logical_or logical_xor logical_right_shift "
    "bitwise_and bitwise_or bitwise_xor maximum minimum remainder logical_left_shift atan2 pow_tensor "
    "clamp_tensor").split())


def fusable(op: Operation | None) -> bool:
    return isinstance(op, TTNNOp) and op.ROW.name in FUSABLE


def _readers(op: Operation) -> list[Operation]:
    return [use.operation for result in op.results for use in result.uses]


def _is_exit(op: Operation) -> bool:
    return fusable(op) and not any(fusable(reader) for reader in _readers(op))


def _blocks_innermost_first(op: Operation):
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                yield from _blocks_innermost_first(inner)
            yield block


def fusion_groups(module: ModuleOp) -> list[list[Operation]]:
    """The groups to outline, each in block order (its exit last)."""
    exits = [op for block in _blocks_innermost_first(module) for op in reversed(list(block.ops)) if _is_exit(op)]
    taken: set[Operation] = set()
    groups = []
    for exit_op in exits:
        members, stack = {exit_op}, [exit_op]
        while stack:
            for operand in stack.pop().operands:
                producer = operand.owner
                if not fusable(producer) or producer in taken or producer in members:
                    continue
                if all(reader in members for reader in _readers(producer)):
                    members.add(producer)
                    stack.append(producer)
        if len(members) >= 2:
            taken |= members
            groups.append([op for op in exit_op.parent_block().ops if op in members])
    return groups


def _enclosing_module(op: Operation) -> ModuleOp:
    parent = op.parent_op()
    while not isinstance(parent, ModuleOp):
        parent = parent.parent_op()
    return parent


def _free_name(module: ModuleOp, base: str) -> str:
    taken = {op.sym_name.data for op in module.ops if isinstance(op, FuncOp)}
    name, n = base, 0
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    return name


def outline(group: list[Operation], index: int) -> None:
    """Move `group` into `@d2m_subgraph_<index>` and run it from a `ttnn.d2m_subgraph` where the group stood."""
    members = set(group)
    inputs: list[SSAValue] = []
    for op in group:
        for operand in op.operands:
            if operand.owner not in members and operand not in inputs:
                inputs.append(operand)
    first, exit_op = group[0], group[-1]
    block = first.parent_block()
    order = {op: i for i, op in enumerate(block.ops)}
    definers = [v.owner for v in inputs if isinstance(v.owner, Operation) and v.owner in order]
    last_definer = max(definers, key=order.__getitem__, default=None)
    at = InsertPoint.after(last_definer) if last_definer is not None else InsertPoint.before(first)

    device = device_of(block)
    buffers = [ttnn_empty(result.type, device, first) for result in exit_op.results]
    Rewriter.insert_op(buffers, at)

    module = _enclosing_module(first)
    name = _free_name(module, f"d2m_subgraph_{index}")
    outline_function(module, name, group, inputs, list(exit_op.results)).location = first.location

    subgraph = D2MSubgraphOp.build(name, inputs, [b.results[0] for b in buffers], exit_op.result_types)
    subgraph.location = first.location
    Rewriter.insert_op(subgraph, InsertPoint.after(buffers[-1]) if buffers else at)
    for old, new in zip(exit_op.results, subgraph.results):
        old.replace_all_uses_with(new)
    for op in reversed(group):
        Rewriter.erase_op(op)


@dataclass(frozen=True)
class TTNNCreateD2MSubgraphsPass(ModulePass):
    """Outline chains of elementwise TTNN ops into `ttnn.d2m_subgraph` functions."""

    name: ClassVar[str] = "ttnn-create-d2m-subgraphs"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for index, group in enumerate(fusion_groups(module)):
            outline(group, index)
