"""`--stablehlo-fusing`: StableHLO op chains that say one simpler thing become that thing.

- A concatenate of one value repeated n times becomes a `broadcast_in_dim` when
  - a reshape then splits the joined dimension into (n, the value's size) (the reshape is replaced),
  - the value is a reshape that inserted a size-1 dimension at the joined one (read past that reshape), or
  - the value already has size 1 along the joined dimension.
- A gather whose start indices are a reshape appending a size-1 index vector dimension reads the reshape's
  operand instead (the index vector dimension past the last one means the same).
Values split over a mesh (a sharded operand or result) are left alone: a broadcast would move their pieces.
Ops these rewrites leave unused are removed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import Pure

from ttmlir.dialects import sdy
from ttmlir.dialects import stablehlo as shlo
from ttmlir.transforms.shardy.sdy_user_priority_propagate import value_sharding


def _split(op: Operation) -> bool:
    """Whether a value the op reads or writes is split over a mesh axis."""
    shardings = [value_sharding(v) for v in op.operands]
    attr = op.attributes.get("sdy.sharding")
    if isinstance(attr, sdy.ShardingPerValueAttr):
        shardings += attr.data
    return any(s is not None and s.axes() for s in shardings)


def _shape(value: SSAValue) -> list[int]:
    return list(value.type.get_shape())


def _inserts_unit_dim(reshape: Operation, dim: int) -> bool:
    """reshape: its result is its operand's shape with a 1 inserted at `dim`."""
    before, after = _shape(reshape.operands[0]), _shape(reshape.results[0])
    return after == before[:dim] + [1] + before[dim:]


def _broadcast(at: Operation, value: SSAValue, result: SSAValue, dims: list[int]) -> None:
    new = shlo.OPS["broadcast_in_dim"].create(operands=[value], result_types=[result.type],
                                              properties={"broadcast_dimensions": shlo.i64_array(dims)})
    Rewriter.insert_op(new, InsertPoint.before(at))
    result.replace_all_uses_with(new.results[0])


def _concatenate(op: Operation) -> list[Operation]:
    """The ops the rewrite may have left unused (none: no rewrite)."""
    inputs = list(op.operands)
    if len(set(inputs)) != 1 or _split(op):
        return []
    value, dim, n = inputs[0], shlo.int_of(op.properties["dimension"]), len(inputs)
    shape = _shape(value)
    users = [u.operation for u in op.results[0].uses]
    if len(users) == 1 and users[0].name == "stablehlo.reshape" and not _split(users[0]):
        reshape = users[0]
        if _shape(reshape.results[0]) == shape[:dim] + [n] + shape[dim:]:
            _broadcast(reshape, value, reshape.results[0], [d for d in range(len(shape) + 1) if d != dim])
            return [reshape]
    producer = value.owner
    if isinstance(producer, Operation) and producer.name == "stablehlo.reshape" and not _split(producer) \
            and _inserts_unit_dim(producer, dim):
        rank = len(shape) - 1
        _broadcast(op, producer.operands[0], op.results[0], [d if d < dim else d + 1 for d in range(rank)])
        return [op]
    if shape[dim] == 1:
        _broadcast(op, value, op.results[0], list(range(len(shape))))
        return [op]
    return []


def _gather(op: Operation) -> list[Operation]:
    indices = op.operands[1]
    reshape = indices.owner
    if not isinstance(reshape, Operation) or reshape.name != "stablehlo.reshape" or _split(op) or _split(reshape):
        return []
    vector_dim = op.properties["dimension_numbers"].index_vector_dim
    if vector_dim != len(_shape(indices)) - 1 or not _inserts_unit_dim(reshape, vector_dim):
        return []
    op.operands[1] = reshape.operands[0]
    return [reshape]


REWRITES = {"stablehlo.concatenate": _concatenate, "stablehlo.gather": _gather}


def erase_if_unused(op: Operation) -> None:
    """`op`, then the producers only it used, when nothing reads them and they have no effects."""
    work = [op]
    while work:
        op = work.pop()
        if op.parent is None or any(r.uses for r in op.results) or not isinstance(op, shlo.StableHLOOp) \
                or not op.has_trait(Pure):
            continue
        producers = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
        Rewriter.erase_op(op)
        work += producers


@dataclass(frozen=True)
class StableHLOFusingPass(ModulePass):
    """Fuse StableHLO op chains into simpler equivalent ops."""

    name: ClassVar[str] = "stablehlo-fusing"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        changed = True
        while changed:  # a rewrite can expose another (a broadcast's operand is itself a repeated concatenate)
            changed = False
            for op in list(module.walk()):
                rewrite = REWRITES.get(op.name)
                if op.parent is None or rewrite is None:
                    continue
                for dead in rewrite(op):
                    changed = True
                    erase_if_unused(dead)
