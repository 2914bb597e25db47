"""`--reoutline-composite`: composites `--flatten-or-convert-composites` flattened are rebuilt after propagation.

The ops of a function tagged with one `reoutline.group` are moved into a new private function
`@outlined_<group>` and replaced by a `stablehlo.composite` calling it, named and attributed as the group's seed op
records (`reoutline.orig_name`, `reoutline.comp_attrs`). The values the group reads from outside become the
composite's operands, in the original composite's operand order where `reoutline.arg_operand_indices` records it
(others after them, in program order); the values used outside become its results, in the order
`reoutline.result_pos` records (others after them, in program order). A group split over blocks, or with other
ops between its first and last op (something was inserted into it, e.g. a reshard), is left flattened.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import DictionaryAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import stablehlo as shlo
from ttmlir.ir.outline import outline_function

GROUP, SEED, NAME, ATTRS = "reoutline.group", "reoutline.seed", "reoutline.orig_name", "reoutline.comp_attrs"
ARG_INDICES, RESULT_POS = "reoutline.arg_operand_indices", "reoutline.result_pos"
MARKS = (GROUP, SEED, NAME, ATTRS, ARG_INDICES, RESULT_POS)


def _boundary(ops: list[Operation], position: dict) -> tuple[list[SSAValue], list[SSAValue]]:
    """The values the group reads from outside it and the values of it used outside, each in composite order."""
    members = set(ops)

    def program_order(v: SSAValue):
        return (0, v.index, 0) if isinstance(v, BlockArgument) else (1, position[v.owner], v.index)

    captures, known_index = [], {}
    for op in ops:
        indices = shlo.ints_of(op.attributes.get(ARG_INDICES))
        for j, v in enumerate(op.operands):
            if isinstance(v.owner, Operation) and v.owner in members:
                continue
            if v not in captures:
                captures.append(v)
            if j < len(indices) and indices[j] >= 0:
                known_index.setdefault(v, indices[j])
    escapes, known_pos = [], {}
    for op in ops:
        positions = shlo.ints_of(op.attributes.get(RESULT_POS))
        for r in op.results:
            if any(use.operation not in members for use in r.uses):
                escapes.append(r)
                if r.index < len(positions) and positions[r.index] >= 0:
                    known_pos[r] = positions[r.index]

    def order(known: dict):
        return lambda v: (0, known[v], ()) if v in known else (1, 0, program_order(v))
    return sorted(captures, key=order(known_index)), sorted(escapes, key=order(known_pos))


def _unique_name(module: ModuleOp, base: str) -> str:
    taken = {op.sym_name.data for op in module.body.block.ops if isinstance(op, FuncOp)}
    name, n = base, 0
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    return name


def _outline(module: ModuleOp, group: str, ops: list[Operation], captures, escapes) -> None:
    callee = outline_function(module, _unique_name(module, f"outlined_{group}"), ops, list(captures), list(escapes))
    for clone in callee.body.block.ops:
        for mark in MARKS:
            clone.attributes.pop(mark, None)

    seed = next((op for op in ops if SEED in op.attributes), None)
    name = seed.attributes.get(NAME) if seed is not None else None
    attrs = seed.attributes.get(ATTRS) if seed is not None else None
    composite = shlo.OPS["composite"].create(
        operands=list(captures), result_types=[v.type for v in escapes],
        properties={"name": name if isinstance(name, StringAttr) else StringAttr(callee.sym_name.data),
                    "composite_attributes": attrs if isinstance(attrs, DictionaryAttr) else DictionaryAttr({}),
                    "decomposition": SymbolRefAttr(callee.sym_name.data)})
    Rewriter.insert_op(composite, InsertPoint.before(ops[0]))
    for old, new in zip(escapes, composite.results):
        old.replace_all_uses_with(new)
    for op in reversed(ops):
        Rewriter.erase_op(op)


@dataclass(frozen=True)
class ReoutlineCompositePass(ModulePass):
    """Reconstruct composite ops from flattened groups marked by reoutline.* attributes."""

    name: ClassVar[str] = "reoutline-composite"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for func in [f for f in module.body.block.ops if isinstance(f, FuncOp)]:
            groups: dict[str, list[Operation]] = {}
            for op in func.walk():
                if isinstance(group := op.attributes.get(GROUP), StringAttr):
                    groups.setdefault(group.data, []).append(op)
            for group, ops in groups.items():
                block = ops[0].parent_block()
                if any(op.parent_block() is not block for op in ops):
                    continue
                position = {op: i for i, op in enumerate(block.ops)}
                ops.sort(key=position.__getitem__)
                if position[ops[-1]] - position[ops[0]] + 1 != len(ops):  # not one contiguous range
                    continue
                _outline(module, group, ops, *_boundary(ops, position))
