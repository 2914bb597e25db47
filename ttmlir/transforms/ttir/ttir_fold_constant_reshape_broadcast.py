"""`--ttir-fold-constant-reshape-broadcast`: a reshape or broadcast of a splat constant becomes a splat constant of
the result's shape (a reshape only where elementwise add/subtract/multiply/div/pow or a broadcast consume it), so the
data movement leaves the graph. Chains of reshapes and broadcasts fold as one; what only fed them goes away. As
MLIR's greedy rewriter does, the ops' own folds run first: a reshape or broadcast of a constant becomes a constant
of the result's shape, a full op for a splat (as TTIR materializes one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects.tt_rewrites import is_splat, splat_fill_value
from ttmlir.ir.props import KINDS
from ttmlir.dialects.ttir import TTIR_OP_CLASSES

RESHAPE_CONSUMERS = frozenset({"ttir.add", "ttir.subtract", "ttir.multiply", "ttir.div", "ttir.pow", "ttir.broadcast"})
MOVES = frozenset({"ttir.reshape", "ttir.broadcast"})
DEAD_WHEN_UNUSED = MOVES | {"ttir.constant", "ttir.full", "ttir.zeros", "ttir.ones"}


def splat_source(value: SSAValue) -> DenseIntOrFPElementsAttr | None:
    """The splat constant a value is, through reshapes and broadcasts (a splat stays one through them)."""
    owner = value.owner
    while isinstance(owner, Operation) and owner.name in MOVES:
        owner = owner.operands[0].owner
    if not isinstance(owner, Operation) or owner.name != "ttir.constant":
        return None
    attr = owner.properties.get("value")
    return attr if isinstance(attr, DenseIntOrFPElementsAttr) and is_splat(attr) else None


def _foldable(op: Operation) -> bool:
    if op.name == "ttir.broadcast":
        return True
    users = [use.operation.name for use in op.results[0].uses]
    return op.name == "ttir.reshape" and bool(users) and all(u in RESHAPE_CONSUMERS for u in users)


def _replace(op: Operation, name: str, props: dict) -> None:
    result: TensorType = op.results[0].type
    new = TTIR_OP_CLASSES[name].create(result_types=[result], properties=props)
    new.location = op.location
    op.parent.insert_op_before(new, op)
    op.results[0].replace_all_uses_with(new.results[0])


def _splat_constant(op: Operation, splat: DenseIntOrFPElementsAttr) -> None:
    """`op`'s result as a constant holding `splat`'s one value (stored once)."""
    result: TensorType = op.results[0].type
    size = splat.get_element_type().compile_time_size
    _replace(op, "constant", {"value": DenseIntOrFPElementsAttr(TensorType(result.element_type, result.get_shape()),
                                                                BytesAttr(splat.data.data[:size]))})


def fold_move(op: Operation) -> bool:
    """The folds of a reshape or broadcast (as the ops' folders do): of nothing (identity), of a reshape (one
    reshape), of a constant (a constant of the result's shape; a splat becomes a full op)."""
    source, result = op.operands[0], op.results[0].type
    if tuple(source.type.get_shape()) == tuple(result.get_shape()):
        op.results[0].replace_all_uses_with(source)
        return True
    producer = source.owner
    if op.name == "ttir.reshape" and isinstance(producer, Operation) and producer.name == "ttir.reshape":
        op.operands[0] = producer.operands[0]
        return fold_move(op) or True
    if not isinstance(producer, Operation):
        return False
    shape = KINDS["i32_darray"].build(list(result.get_shape()))
    if producer.name in ("ttir.full", "ttir.zeros", "ttir.ones"):
        _replace(op, producer.name.removeprefix("ttir."), {**producer.properties, "shape": shape})
        return True
    value = producer.properties.get("value") if producer.name == "ttir.constant" else None
    if not isinstance(value, DenseIntOrFPElementsAttr):
        return False
    fill = splat_fill_value(value)
    if fill is not None:  # zeros and ones by name, as TTIR materializes them
        named = {0: "zeros", 1: "ones"}.get(fill.value.data)
        _replace(op, named or "full", {"shape": shape} if named else {"shape": shape, "fill_value": fill})
    elif op.name == "ttir.reshape":  # the same elements in the new shape
        _replace(op, "constant", {"value": DenseIntOrFPElementsAttr(TensorType(result.element_type,
                                                                               result.get_shape()), value.data)})
    else:
        return False
    return True


def fold_moves(module: ModuleOp) -> None:
    """Fold reshapes and broadcasts, users first, until none folds (a fold can make its users' possible)."""
    changed = True
    while changed:
        changed = False
        for op in reversed(list(module.walk())):
            if op.name in MOVES and op.parent is not None and op.results[0].uses and fold_move(op):
                changed = True


def erase_dead(ops: list[Operation]) -> None:
    """Constants, reshapes and broadcasts nothing reads any more, users before their producers."""
    for op in reversed(ops):
        if op.name in DEAD_WHEN_UNUSED and op.parent is not None and not any(r.uses for r in op.results):
            op.detach()
            op.erase()


@dataclass(frozen=True)
class TTIRFoldConstantReshapeBroadcastPass(ModulePass):
    """Fold reshape and broadcast operations on constants into new constants."""

    name: ClassVar[str] = "ttir-fold-constant-reshape-broadcast"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        ops = list(module.walk())
        for op in reversed(ops):  # users first, as MLIR's greedy rewriter visits them; its folds come first
            if op.name not in MOVES or op.parent is None or not op.results[0].uses or fold_move(op):
                continue
            if _foldable(op) and (splat := splat_source(op.operands[0])) is not None:
                _splat_constant(op, splat)
        fold_moves(module)
        erase_dead(list(module.walk()))
