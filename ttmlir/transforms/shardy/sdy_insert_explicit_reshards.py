"""`--sdy-insert-explicit-reshards`: make every op's operands split as its results need them.

After propagation an operand may be split differently from what the op's factors ask (an elementwise add of a
split and a replicated value, a replicated value feeding a split result): an `sdy.reshard` to the needed
sharding goes in front. A split contracted or reduced dimension leaves each chip a partial result: an
`sdy.all_reduce` over those axes follows the op. Ops without a sharding rule get replicated operands; a result
dim propagation split but the op computes whole (no rule, a sliced dim) is resharded after the op.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from ttmlir.dialects import sdy
from ttmlir.transforms.shardy.sdy_user_priority_propagate import SHARDING, entry_functions, single_mesh, value_sharding
from ttmlir.transforms.shardy.rules import factors_of, segment


def _dims(s: sdy.Sharding | None, rank: int) -> list[tuple]:
    return [d.axes for d in s.dims] if s is not None else [()] * rank


def _make(mesh_name: str, dims: list[tuple]) -> sdy.Sharding:
    return sdy.Sharding(mesh_name, tuple(sdy.DimSharding(tuple(a)) for a in dims))


def reshard_op(op: Operation, mesh_name: str) -> None:
    factors = factors_of(op)
    if factors is not None and not op.operands:
        return  # a constant or iota makes any piece itself (what cannot was replicated already)
    results = [_dims(value_sharding(r), len(r.type.get_shape())) for r in op.results]
    need = [[()] * len(v.type.get_shape()) if isinstance(v.type, TensorType) else None for v in op.operands]
    reduced: list = []
    taken: set = set()
    mesh = sdy.find_mesh(op, mesh_name)
    chosen = _choose_factor_axes(op, factors or [], results, need, mesh)
    for i, factor in enumerate(factors or ()):
        taken.update(chosen[i])
        if factor.reduction:
            reduced += [a for a in chosen[i] if a not in reduced]
    operand_dims = _per_dim(factors or [], chosen, "operand", lambda f: True)
    for (_, j, d), axes in operand_dims.items():
        need[j][d] = axes
    if factors is not None:  # a dim of size 1 in no factor (a reshape's) keeps its split: only one-chip axes fit it
        for j, value in enumerate(op.operands):
            if need[j] is not None:
                have = _dims(value_sharding(value), len(need[j]))
                for d, n in enumerate(value.type.get_shape()):
                    if n == 1 and ("operand", j, d) not in operand_dims:
                        need[j][d] = have[d]
    _redistribute(op, mesh_name, factors or [], chosen, need, results, taken)
    for i, (value, dims) in enumerate(zip(op.operands, need)):
        if dims is None or _dims(value_sharding(value), len(dims)) == dims:
            continue
        reshard = sdy.ReshardOp(operands=[value], result_types=[value.type],
                                properties={"sharding": sdy.ShardingAttr(_make(mesh_name, dims))})
        op.parent_block().insert_op_before(reshard, op)
        op.operands[i] = reshard.results[0]
    # what the op computes per chip: result dims its factors tie to split operand dims; the others whole
    computed = [[()] * len(r) for r in results]
    tied = lambda f: (f.spread or any(p[0] == "operand" for p in f.places)) and not f.reduction
    for (_, j, d), axes in _per_dim(factors or [], chosen, "result", tied).items():
        computed[j][d] = axes
    after = op
    if reduced and op.results:
        result = op.results[0]
        reduce = sdy.AllReduceOp(operands=[result], result_types=[result.type], properties={
            "reduction_axes": sdy.AxisRefListAttr(tuple(reduced)),
            "out_sharding": sdy.ShardingAttr(_make(mesh_name, computed[0]))})
        op.parent_block().insert_op_after(reduce, op)
        result.replace_uses_with_if(reduce.results[0], lambda use: use.operation is not reduce)
        after = reduce
    if computed != results:  # propagation split a dim the op computes whole: slice it after
        op.attributes[SHARDING] = sdy.ShardingPerValueAttr(tuple(_make(mesh_name, c) for c in computed))
        for i, (result, want) in enumerate(zip(op.results, results)):
            if computed[i] == want:
                continue
            value = after.results[0] if after is not op and i == 0 else result
            reshard = sdy.ReshardOp(operands=[value], result_types=[value.type],
                                    properties={"sharding": sdy.ShardingAttr(_make(mesh_name, want))})
            op.parent_block().insert_op_after(reshard, after)
            value.replace_uses_with_if(reshard.results[0], lambda use: use.operation is not reshard)


def _choose_factor_axes(op: Operation, factors: list, results: list, need: list, mesh) -> dict[int, tuple]:
    """Which axes split each factor, as shardy's explicit reshards choose them: every (factor, axes) a tensor holds is
    a candidate worth the elements of the tensors holding it (what keeping it saves moving); the worthiest first, a
    free factor before a contracted one at equal worth, each factor and each axis taken once. A factor the op
    computes whole is not split; a chip's own operand pieces (`local`) are kept as they are. A factor after others
    in a dim is split only where those before it are split whole."""
    worth: dict[tuple[int, tuple], list] = {}
    for i, factor in enumerate(factors):
        if factor.whole:
            continue
        for place in factor.places:
            kind, j, d = place[:3]
            value = op.results[j] if kind == "result" else op.operands[j]
            dims = results[j] if kind == "result" else _dims(value_sharding(value), len(need[j]))
            axes = segment(dims[d], place, factor.size, mesh.size) if mesh is not None or len(place) < 4 else None
            if axes and (kind == "operand" or not (factor.reduction or factor.local)):
                entry = worth.setdefault((i, tuple(axes)), [0, 2 if factor.reduction else 3, -i])
                entry[0] += math.prod(value.type.get_shape())
    chosen: dict[int, tuple] = {i: () for i in range(len(factors))}
    taken: set = set()
    for (i, axes), _ in sorted(worth.items(), key=lambda kv: kv[1], reverse=True):
        if chosen[i] or any(a in taken for a in axes):
            continue
        chosen[i] = axes
        taken.update(axes)
    while any(_unreachable(factors, chosen, mesh)):
        for i in _unreachable(factors, chosen, mesh):
            chosen[i] = ()
    return chosen


def _unreachable(factors: list, chosen: dict, mesh) -> list[int]:
    """Split factors after others in a dim whose factors before them are not split whole there."""
    def size(axes):
        return math.prod(mesh.size(a) for a in axes) if mesh is not None else 1

    before: dict[tuple, list] = {}
    for i, factor in enumerate(factors):
        for place in factor.places:
            before.setdefault(place[:3], []).append((place[3] if len(place) > 3 else 1, i))
    bad = []
    for parts in before.values():
        for start, i in parts:
            prior = [chosen[k] for s, k in parts if s < start]
            if start > 1 and chosen[i] and size(tuple(a for axes in prior for a in axes)) != start:
                bad.append(i)
    return bad


def _per_dim(factors: list, chosen: dict, kind: str, counts) -> dict[tuple, tuple]:
    """Each `kind` dim's split: the chosen axes of its factors (those `counts` says split it), in their order."""
    parts: dict[tuple, list] = {}
    for i, factor in enumerate(factors):
        for place in factor.places:
            if place[0] == kind:
                parts.setdefault(place[:3], []).append((place[3] if len(place) > 3 else 1, i))
    return {key: tuple(a for _, i in sorted(items) if counts(factors[i]) for a in chosen[i])
            for key, items in parts.items()}


def _redistribute(op: Operation, mesh_name: str, factors: list, chosen: dict, need: list, results: list,
                  taken: set) -> None:
    """An axis splitting a dim the op computes whole on every tensor of a free factor (query, key, value and output
    split by sequence) moves to that factor instead of being gathered: an all-to-all each way, as shardy does."""
    whole_dims = {p[:3] for f in factors if f.whole for p in f.places}

    def held(place) -> tuple:
        kind, i, d = place
        dims = results[i] if kind == "result" else _dims(value_sharding(op.operands[i]), len(need[i]))
        return dims[d] if (kind, i, d) in whole_dims else ()

    for i, factor in enumerate(factors):
        if factor.whole or factor.reduction or chosen.get(i) or factor.spread:
            continue
        tensors = {p[:2] for p in factor.places}
        axes = [a for a in dict.fromkeys(a for p in sorted(whole_dims) for a in held(p)) if a not in taken]
        mesh = sdy.find_mesh(op, mesh_name)
        for axis in axes:
            size = mesh.size(axis) if mesh is not None else 0
            carriers = {(kind, j) for kind, j, d in whole_dims if axis in held((kind, j, d))}
            if size and factor.size % size == 0 and tensors <= carriers:
                chosen[i] = (axis,)
                taken.add(axis)
                for kind, j, d in (p[:3] for p in factor.places):
                    if kind == "operand":
                        need[j][d] = (axis,)
                break


@dataclass(frozen=True)
class InsertExplicitReshardsPass(ModulePass):
    """Insert reshards and all-reduces so every op computes on operands split as its results."""

    name = "sdy-insert-explicit-reshards"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        found = single_mesh(op)
        if found is None:
            return
        for func in entry_functions(op):
            for inner in list(func.body.block.ops):
                if SHARDING in inner.attributes and not inner.name.startswith("sdy."):
                    reshard_op(inner, found[0])
