"""`--d2m-op-scheduler`: reorders the tile ops of fused eltwise nests so their evaluation needs the fewest DST slices
(Sethi-Ullman), and marks the nests `d2m.scheduled` for `--d2m-insert-dst-register-access-scheduled`.

Only generics that are all-parallel, have more than three operands (a fused eltwise of three or more inputs) and
contain no op that eltwise fusion skips are scheduled. In each `d2m.linalg_root` nest, the expression tree ending in
the innermost loop's first store is weighed (a load weighs 1; an op its heaviest child, one more for equal binary
children; ternary ops by Sethi-Ullman's three-operand rule) and laid out heaviest subtree first at the start of the
innermost loop body. `enable-op-scheduler=false` turns the pass off."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import affine
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m

ROOT, SCHEDULED = "d2m.linalg_root", "d2m.scheduled"
# ops eltwise fusion leaves alone: a generic holding one is not a fused eltwise
SKIP_ELTWISE_FUSION = frozenset({"d2m.tile_typecast", "d2m.tile_fill", "d2m.tile_tilize_block",
                                 "d2m.tile_untilize_block", "d2m.tile_topk_local_sort", "d2m.tile_topk_merge",
                                 "d2m.tile_topk_rebuild", "d2m.arange_block", "d2m.topk_block"})


@dataclass(eq=False)
class Node:
    op: Operation
    children: list["Node"] = field(default_factory=list)
    weight: int = 0


def is_fused_eltwise(generic: d2m.GenericOp) -> bool:
    iterators = generic.attributes["iterator_types"].data
    return all(t.data.value == "parallel" for t in iterators) and len(generic.operands) > 3 and \
        not any(op.name in SKIP_ELTWISE_FUSION for op in generic.walk())


def innermost_loop(root: Operation) -> affine.ForOp | None:
    """The first innermost affine.for of the nest (the first one a post-order walk meets)."""
    loop = root if isinstance(root, affine.ForOp) else None
    while loop is not None:
        inner = next((op for op in loop.body.block.ops for o in op.walk() if isinstance(o, affine.ForOp)), None)
        if inner is None:
            return loop
        loop = next(o for o in inner.walk() if isinstance(o, affine.ForOp))
    return None


def build_tree(op: Operation, body: Block) -> Node:
    """The tree of `op`'s operands: loads are leaves, ops of the loop body are subtrees."""
    node = Node(op)
    for value in op.operands:
        producer = value.owner
        if isinstance(producer, affine.LoadOp):
            node.children.append(Node(producer))
        elif isinstance(producer, Operation) and producer.parent_block() is body:
            node.children.append(build_tree(producer, body))
    return node


def weigh(node: Node) -> int:
    weights = [weigh(child) for child in node.children[:3]]
    if not weights:
        node.weight = 1
    elif len(weights) == 1:
        node.weight = weights[0]
    elif len(weights) == 2:
        node.weight = weights[0] + 1 if weights[0] == weights[1] else max(weights)
    else:
        heavy, middle, light = sorted(weights, reverse=True)
        node.weight = max(heavy, 1 + max(middle, 1 + light))
    return node.weight


def lay_out(node: Node, body: Block, last: list[Operation | None], moved: set[Operation]) -> None:
    """Moves the subtree's ops, heaviest child first, each right after the previous one moved."""
    for child in sorted(node.children, key=lambda c: -c.weight):
        lay_out(child, body, last, moved)
    if isinstance(node.op, affine.LoadOp) or all(child.op in moved for child in node.children):
        if node.op is not last[0]:
            node.op.detach()
            if last[0] is None:
                body.insert_op_before(node.op, body.first_op) if body.first_op is not None else body.add_op(node.op)
            else:
                body.insert_op_after(node.op, last[0])
        moved.add(node.op)
        last[0] = node.op


def schedule(root: Operation) -> None:
    loop = innermost_loop(root)
    if loop is None:
        return
    body = loop.body.block
    store = next((o for o in body.walk() if isinstance(o, affine.StoreOp)), None)
    if store is None or not isinstance(store.value.owner, Operation):
        return
    tree = build_tree(store.value.owner, body)
    weigh(tree)
    lay_out(tree, body, [None], set())


@dataclass(frozen=True)
class D2MOpSchedulerPass(ModulePass):
    name: ClassVar[str] = "d2m-op-scheduler"
    enable_op_scheduler: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not self.enable_op_scheduler:
            return
        for generic in [g for g in op.walk() if isinstance(g, d2m.GenericOp)]:
            if not is_fused_eltwise(generic):
                continue
            roots = [o for o in generic.walk() if isinstance(o, affine.ForOp) and ROOT in o.attributes and
                     SCHEDULED not in o.attributes]
            for root in roots:
                root.attributes[SCHEDULED] = UnitAttr()
                schedule(root)
