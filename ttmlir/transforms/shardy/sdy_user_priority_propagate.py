"""`--sdy-user-priority-propagate`: spread the shardings users wrote over the whole function.

Seeds are the `sdy.sharding` of function arguments and results and of annotated ops. Through each op's factors
(`shardy_rules`) a split of one place spreads to the places it moves with, forward and backward until nothing
changes; a split lands only where it divides the dimension and its axes are not used elsewhere on the tensor.
User priorities (`p0` first) order the seeds; what nothing reaches stays replicated. Every op then carries its
results' `sdy.sharding`, every argument and result of a function its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import sdy
from ttmlir.conversion.stablehlo_to_ttir.gspmd import gspmd_annotated
from ttmlir.transforms.shardy.rules import factors_of, segment

SHARDING = "sdy.sharding"
Dims = list  # per dimension: a tuple of AxisRef, or None while nothing decided it


def arg_sharding(func: FuncOp, index: int, key: str = "arg_attrs") -> sdy.Sharding | None:
    attrs = getattr(func, key)
    if attrs is None or index >= len(attrs.data):
        return None
    value = attrs.data[index].data.get(SHARDING)
    return value.data if isinstance(value, sdy.ShardingAttr) else None


def set_func_attr(func: FuncOp, index: int, key: str, name: str, value) -> None:
    count = len(func.function_type.inputs.data if key == "arg_attrs" else func.function_type.outputs.data)
    attrs = list(getattr(func, key).data) if getattr(func, key) is not None else [DictionaryAttr({})] * count
    entries = dict(attrs[index].data)
    if value is None:
        entries.pop(name, None)
    else:
        entries[name] = value
    attrs[index] = DictionaryAttr(entries)
    setattr(func, key, ArrayAttr(attrs))


def value_sharding(value: SSAValue) -> sdy.Sharding | None:
    """The sharding a value has: its op's annotation, its function argument's, or its manual computation's."""
    owner = value.owner
    if isinstance(owner, Block):
        parent = owner.parent_op()
        if isinstance(parent, FuncOp):
            return arg_sharding(parent, value.index)
        if isinstance(parent, sdy.ManualComputationOp):
            return parent.in_shardings.data[value.index]
        return None
    if isinstance(owner, (sdy.ReshardOp, sdy.ShardingConstraintOp)):
        return owner.sharding.data
    if isinstance(owner, sdy.ManualComputationOp):
        return owner.out_shardings.data[value.index]
    if hasattr(owner, "out_sharding"):
        return owner.out_sharding.data
    attr = owner.attributes.get(SHARDING)
    return attr.data[value.index] if isinstance(attr, sdy.ShardingPerValueAttr) else None


def _seed(s: sdy.Sharding | None, rank: int) -> Dims:
    if s is None:
        return [None] * rank
    return [d.axes if (d.axes or d.closed) else None for d in s.dims]


def _common_prefix(lists: list[tuple]) -> tuple:
    first = lists[0]
    n = next((k for k in range(len(first)) if any(len(o) <= k or o[k] != first[k] for o in lists)), len(first))
    return first[:n]


def _before_overlap(axes: tuple, held: list) -> tuple:
    names = {a.name for a in held}
    return next((axes[:k] for k, a in enumerate(axes) if a.name in names), axes)


class Propagation:
    """Shardings of every value of a function, grown from its seeds through the ops' factors."""

    def __init__(self, func: FuncOp, mesh: sdy.Mesh, mesh_name: str):
        self.mesh, self.mesh_name, self.dims = mesh, mesh_name, {}
        self.ops = [op for op in func.body.walk() if op is not func and not isinstance(op, sdy.MeshOp)]
        seeds = [(arg, arg_sharding(func, arg.index)) for arg in func.body.block.args]
        seeds += [(r, value_sharding(r)) for op in self.ops for r in op.results]
        # dims the user gave a priority (`{"x"}p1`) join in rounds, p0 first; the others seed the first round
        self.later: list[tuple[int, SSAValue, int, tuple]] = []
        for value, s in seeds:
            self.dims[value] = _seed(s, self._rank(value))
            for d, dim in enumerate(s.dims if s is not None else ()):
                if dim.priority is not None and dim.axes:
                    self.later.append((dim.priority, value, d, dim.axes))
        ret = func.body.block.last_op
        self.results = [(v, _seed(arg_sharding(func, i, "res_attrs"), self._rank(v)))
                        for i, v in enumerate(ret.operands)] if isinstance(ret, ReturnOp) else []
        self.open = {v: [d is None for d in dims] for v, dims in self.dims.items()}
        for _, value, d, _ in self.later:
            self.dims[value][d] = None

    @staticmethod
    def _rank(v: SSAValue) -> int:
        return len(v.type.get_shape()) if isinstance(v.type, TensorType) else 0

    def _get(self, op: Operation, place) -> tuple[SSAValue, int]:
        kind, index, dim = place[:3]
        return (op.operands[index] if kind == "operand" else op.results[index]), dim

    def _fits(self, value: SSAValue, dim: int, axes, size: int) -> bool:
        split = math.prod(self.mesh.size(a) for a in axes)
        if size % split or value.type.get_shape()[dim] % split:
            return False
        used = {a.name for d, other in enumerate(self.dims.get(value, [])) if d != dim and other for a in other}
        return not any(a.name in used for a in axes)

    def _split_of(self, op: Operation, factor, place) -> tuple | None:
        """The axes splitting `factor` at `place`, or None where nothing splits it (yet): an open dim, a dim kept
        whole (which does not hold a split back: its value is resharded), or a dim whose split does not reach this
        factor of it."""
        value, dim = self._get(op, place)
        current = self.dims[value][dim] if value in self.dims else None
        return segment(current, place, factor.size, self.mesh.size) or None if current is not None else None

    def _candidates(self, op: Operation, factors: list) -> list[tuple]:
        """The axes each factor of `op` may spread, as shardy's aggressive factor propagation finds them: what the
        places splitting the factor agree on (the longest common prefix), cut before the first axis something else
        already holds on a tensor the factor is on; then cut again before any axis another factor on such a tensor
        would take (neither of two factors wanting one axis gets it)."""
        splits = [[self._split_of(op, f, p) for p in f.places] for f in factors]
        tensors = [[self._get(op, p)[0] for p in f.places] for f in factors]
        wanted = []
        for i in range(len(factors)):
            known = [k for k in splits[i] if k is not None]
            axes = _common_prefix(known) if known else ()
            for value in {v for v in tensors[i] if v in self.dims}:
                own = {a for v, k in zip(tensors[i], splits[i]) if v is value and k for a in k}
                axes = _before_overlap(axes, [a for dim in self.dims[value] if dim for a in dim if a not in own])
            wanted.append(axes)
        result = []
        for i in range(len(factors)):
            axes = wanted[i]
            for value in {v for v in tensors[i] if v in self.dims}:
                axes = _before_overlap(axes, [a for j in range(len(factors)) if j != i and
                                              any(v is value for v in tensors[j]) for a in wanted[j]])
            result.append(axes)
        return result

    def _extend(self, value: SSAValue, dim: int, place, axes: tuple, size: int) -> tuple | None:
        """The dim's split with `axes` splitting the factor at `place`, if it can take them: a factor that is the
        whole dim or its first splits an open dim; a later one extends a propagated split that splits the factors
        before it whole."""
        current = self.dims[value][dim]
        if len(place) < 4 or place[3] == 1:
            return axes if current is None and self._fits(value, dim, axes, size) else None
        if current is None or not self.open[value][dim] or math.prod(self.mesh.size(a) for a in current) != place[3]:
            return None
        extended = tuple(current) + tuple(axes)
        if any(a.name in {c.name for c in current} for a in axes) or \
                not self._fits(value, dim, extended, place[3] * size):
            return None
        return extended

    def step(self) -> bool:
        changed = False
        for value, seed in self.results:  # a result annotation pulls its value's sharding
            for d, axes in enumerate(seed):
                if axes is not None and self.dims.get(value, [None] * len(seed))[d] is None and value in self.dims:
                    self.dims[value][d], changed = axes, True
        for op in self.ops:
            factors = factors_of(op) or []
            for factor, axes in zip(factors, self._candidates(op, factors)):
                if not axes:
                    continue
                for place in factor.places:
                    v, d = self._get(op, place)
                    if v in self.dims and (new := self._extend(v, d, place, axes, factor.size)) is not None:
                        self.dims[v][d], changed = new, True
        return changed

    def run(self) -> None:
        """Propagate from the seeds without a priority and those of p0, then again with p1's added, and so on: a
        user's dim is theirs whatever an earlier round put there."""
        for priority in sorted({p for p, *_ in self.later}) or [None]:
            for p, value, d, axes in self.later:
                if p == priority:
                    self.dims[value][d] = axes
            while self.step():
                pass

    def sharding(self, value: SSAValue) -> sdy.Sharding:
        """What propagation found; a dim no user closed stays open (`?`), as shardy leaves it."""
        open_ = self.open.get(value, ())
        return sdy.Sharding(self.mesh_name, tuple(sdy.DimSharding(tuple(a or ()), not (d < len(open_) and open_[d]))
                                                  for d, a in enumerate(self.dims[value])))


def entry_functions(module: ModuleOp) -> list[FuncOp]:
    """The public functions with a body: what a framework calls (private ones are inlined into them first)."""
    return [f for f in module.ops if isinstance(f, FuncOp) and f.body.blocks and
            (f.sym_visibility is None or f.sym_visibility.data == "public")]


def single_mesh(module: ModuleOp) -> tuple[str, sdy.Mesh] | None:
    found = sdy.meshes(module)
    return next(iter(found.items())) if found else None


@dataclass(frozen=True)
class SdyUserPriorityPropagatePass(ModulePass):
    """Propagate tensor shardings from the user's annotations through every function."""

    name = "sdy-user-priority-propagate"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        found = single_mesh(op)
        if found is None or gspmd_annotated(op):  # GSPMD partitions by its own custom calls
            return
        name, mesh = found
        for func in entry_functions(op):
            if any(isinstance(o, sdy.ManualComputationOp) for o in func.body.walk()):
                continue  # already partitioned by hand
            prop = Propagation(func, mesh, name)
            prop.run()
            for arg in func.body.block.args:
                if isinstance(arg.type, TensorType):
                    set_func_attr(func, arg.index, "arg_attrs", SHARDING, sdy.ShardingAttr(prop.sharding(arg)))
            for inner in prop.ops:
                # shardy drops the rules it used (a user's is read again from its frontend attribute)
                inner.attributes.pop("sdy.sharding_rule", None)
                if inner.results and all(isinstance(r.type, TensorType) for r in inner.results) and \
                        not inner.name.startswith("sdy.") and isinstance(inner.parent_op(), FuncOp):
                    inner.attributes[SHARDING] = sdy.ShardingPerValueAttr(tuple(prop.sharding(r)
                                                                                for r in inner.results))
            for i, (value, _) in enumerate(prop.results):
                if isinstance(value.type, TensorType):
                    set_func_attr(func, i, "res_attrs", SHARDING, sdy.ShardingAttr(prop.sharding(value)))
