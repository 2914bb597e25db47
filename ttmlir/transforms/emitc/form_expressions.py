"""`--form-expressions` (MLIR's emitc pass): each C operator becomes an `emitc.expression` of its own, then an
expression whose value only one other expression uses is folded into that one, so the C++ can write a chain of
operators as one expression.

The ops wrapped are emitc's C expressions with one result (C_EXPRESSIONS: operators, casts, constants, opaque
calls). An expression is folded into its user only when that is the value's one use, the user is in the same block
(folding into a loop body would evaluate it once per iteration), it is not `noinline`, and it calls nothing with
effects (moving a call later would reorder it with the ops in between).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import emitc


def _outside_values(block: Block) -> list[SSAValue]:
    """The values the block's ops use that are defined outside it, in order of first use."""
    inside = {id(v) for op in block.walk() for v in [*op.results, *(a for r in op.regions for b in r.blocks
                                                                   for a in b.args)]}
    seen: dict[int, SSAValue] = {}
    for op in block.walk():
        for value in op.operands:
            if id(value) not in inside:
                seen.setdefault(id(value), value)
    return list(seen.values())


def _wrap(op: Operation) -> emitc.ExpressionOp:
    """Put `op` in an expression of its own that yields its result, in its place."""
    block = op.parent_block()
    body = Block()
    expression = emitc.ExpressionOp.create(operands=list(op.operands), result_types=[op.results[0].type],
                                           regions=[Region(body)])
    block.insert_op_after(expression, op)
    op.results[0].replace_all_uses_with(expression.result)
    op.detach()
    body.add_ops([op, emitc.YieldOp.create(operands=[op.results[0]])])
    return expression


def _foldable(used: Operation, user: emitc.ExpressionOp) -> bool:
    if not isinstance(used, emitc.ExpressionOp):
        return False
    uses = [u for u in used.result.uses if u.operation is not user]  # not counting the user's list of its inputs
    return (len(uses) == 1 and used.do_not_inline is None and used.parent_block() is user.parent_block()
            and emitc.effect_free(used))


def _fold_into(expression: emitc.ExpressionOp) -> bool:
    """Fold the expressions the ops of `expression` use (once each) into it; whether any was."""
    folded = False
    for inner in list(expression.region.block.ops):
        for used in {id(v.owner): v.owner for v in inner.operands}.values():
            if not _foldable(used, expression):
                continue
            ops = list(used.region.block.ops)
            used.result.replace_all_uses_with(ops[-1].operands[0])
            for moved in ops[:-1]:
                moved.detach()
                expression.region.block.insert_op_before(moved, inner)
            used.detach()
            used.erase()
            folded = True
    if folded:
        expression.operands = _outside_values(expression.region.block)
    return folded


@dataclass(frozen=True)
class FormExpressionsPass(ModulePass):
    """Wrap emitc C expressions in emitc.expression ops and fold single-use ones into their users."""

    name: ClassVar[str] = "form-expressions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for candidate in [o for o in op.walk() if o.name in emitc.C_EXPRESSIONS and len(o.results) == 1
                          and not _in_expression(o)]:
            _wrap(candidate)
        changed = True
        while changed:
            expressions = [e for e in op.walk() if isinstance(e, emitc.ExpressionOp)]
            changed = any([_fold_into(e) for e in expressions if e.parent is not None])


def _in_expression(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, emitc.ExpressionOp):
            return True
        parent = parent.parent_op()
    return False
