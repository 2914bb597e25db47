"""`--ttir-erase-inverse-ops`: move reshapes and permutes (TMs) through the ops between them until inverse pairs
meet and cancel.

A TM commutes upwards above an op whose users are all that same TM (the op then computes in the TM's shape on
TM'd operands), and downwards below an op one of whose operands it makes (the op computes on the TM's input and
the TM follows it; the op's other operands must be the same TM, constants or made from constant arguments, which
take the inverse TM). It does so through elementwise ops, reductions, softmax, static slices, concats,
broadcasts (upwards) and layer/RMS norms, whenever the dimensions the op works on survive the TM. Adjacent TMs
fold as they meet (consecutive reshapes or permutes, identities), as MLIR's greedy driver folds them upstream.
Upwards and downwards sweeps alternate until the count of TMs off constant paths settles (`max-iterations`).
With `force=false` only functions holding a flattened convolution or pool (`flattened_compat_info`), where
inverse TMs are expected, are touched.
"""

from __future__ import annotations

import bisect
import itertools
import math
import operator
from dataclasses import dataclass
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.ir.props import KINDS, int_values, scalar
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.dialects.ttir_attrs import FlattenedCompatInfoAttr
from ttmlir.dialects.ttnn import physical_shape
from ttmlir.dialects import ttcore
from ttmlir.errors import PassFailure

TMS = ("ttir.reshape", "ttir.permute")
CONSTANT_FAMILIES = frozenset({"constant", "full", "fill", "arange"})
MAX_BROADCAST_RTL = 6  # tt-metal broadcasts the last six dimensions; a TM must not move a broadcast past them
HIGH_RANK = 6  # reshapes collapsing 6D+ tensors rarely meet an inverse; moving them costs time


def _shape(value: SSAValue) -> list[int]:
    return list(value.type.get_shape())


def _like(op: Operation, operands, result_shape, element=None, **props) -> Operation:
    """`op` again on `operands`, its result of `result_shape` (and `element`), with `props` changed."""
    result = op.results[0].type
    new = type(op).create(operands=list(operands),
                          result_types=[TensorType(element or result.element_type, result_shape)],
                          properties={**op.properties, **props}, attributes=dict(op.attributes))
    new.location = op.location
    return new


def _perm(tm: Operation) -> list[int]:
    return int_values(tm.prop("permutation"))


def _apply(tm: Operation, value: SSAValue) -> Operation:
    """The TM `tm` (its permutation, or its result shape) applied to `value`."""
    shape = [_shape(value)[p] for p in _perm(tm)] if tm.name == "ttir.permute" else _shape(tm.results[0])
    return _like(tm, [value], shape, value.type.element_type)


def _tm(name: str, at: Operation, value: SSAValue, result_shape, **props) -> Operation:
    op = TTIR_OP_CLASSES[name].create(operands=[value],
                                      result_types=[TensorType(value.type.element_type, list(result_shape))],
                                      properties=props)
    op.location = at.location
    return op


def _permute(at: Operation, value: SSAValue, perm: list[int]) -> Operation:
    return _tm("permute", at, value, [_shape(value)[p] for p in perm], permutation=KINDS["i64_darray"].build(perm))


def _reshape(at: Operation, value: SSAValue, shape) -> Operation:
    return _tm("reshape", at, value, shape, shape=KINDS["i32_array"].build(list(shape)))


def _inverse(tm: Operation, value: SSAValue) -> Operation:
    if tm.name == "ttir.permute":
        perm = _perm(tm)
        return _permute(tm, value, sorted(range(len(perm)), key=perm.__getitem__))
    return _reshape(tm, value, _shape(tm.operands[0]))


def _identical(a, b) -> bool:
    return isinstance(a, TTOp) and isinstance(b, TTOp) and a.name == b.name and a.name in TMS and \
        a.properties == b.properties


def _kept(src: list[int], dst: list[int], d: int) -> int | None:
    """The dimension of `dst` that dimension `d` of `src` becomes under a reshape src -> dst, if it survives it
    (same size, as many elements after it)."""
    after = math.prod(src[d + 1:])
    return next((e for e, n in enumerate(dst) if n == src[d] and math.prod(dst[e + 1:]) == after), None)


def _runs(a: list[int], b: list[int]) -> list[tuple[list[int], list[int]]]:
    """The dimensions of shapes `a` and `b` in the smallest side-by-side runs of equal element counts (a reshape
    keeps each run's elements together)."""
    pa, pb = (list(itertools.accumulate(s, operator.mul, initial=1)) for s in (a, b))
    cuts = sorted(set(pa) & set(pb))
    runs: list[tuple[list[int], list[int]]] = [([], []) for _ in range(max(len(cuts) - 1, 1))]
    for side, prefixes, shape in ((0, pa, a), (1, pb, b)):
        for i in range(len(shape)):
            runs[max(0, min(bisect.bisect_right(cuts, prefixes[i]) - 1, len(runs) - 1))][side].append(i)
    return runs


def _dims(op: Operation, attr: str, rank: int) -> list[int]:
    value = op.prop(attr)
    return sorted({d % rank for d in int_values(value)}) if value is not None else list(range(rank))


def _i32(values) -> object:
    return KINDS["i32_array"].build(list(values))


# --- per op kind: `up(op, tm)` computes `op` in the shape of its TM users; `down(op, i)` computes it on the input
# of the TM making operand i, then that TM. Each returns the new ops (the last one's result replaces) or None.

def _up_elementwise(op, tm):
    if any(_shape(v) != _shape(op.results[0]) for v in op.operands):
        return None  # an operand broadcast implicitly has another shape than the TM's input
    tms = [_apply(tm, v) for v in op.operands]
    return [*tms, _like(op, [t.results[0] for t in tms], _shape(tm.results[0]))]


def _down_elementwise(op, i):
    tm = op.operands[i].owner
    if any(_shape(v) != _shape(op.results[0]) for v in op.operands):
        return None
    inverses = {j: _inverse(tm, v) for j, v in enumerate(op.operands) if j != i}
    new = _like(op, [tm.operands[0] if j == i else inverses[j].results[0] for j in range(len(op.operands))],
                _shape(tm.operands[0]))
    return [*inverses.values(), new, _apply(tm, new.results[0])]


def _up_reduction(op, tm):
    x, keep = op.operands[0], scalar(op.prop("keep_dim"))
    rank, dims = len(_shape(x)), _dims(op, "dim_arg", len(_shape(x)))
    if tm.name == "ttir.permute":
        perm = _perm(tm)
        if not keep:  # the permutation of the kept dims, widened to all: the reduced dims stay where they are
            kept = [d for d in range(rank) if d not in dims]
            full = list(range(rank))
            for k, p in enumerate(perm):
                full[kept[k]] = kept[p]
            perm = full
        moved = _permute(tm, x, perm)
        new_dims = [j for j in range(rank) if perm[j] in dims]
        return [moved, _like(op, [moved.results[0]], _shape(tm.results[0]), dim_arg=_i32(new_dims))]
    # a reshape goes above only a reduction over size-1 dims (any other changes the element count)
    target, reduced = _shape(tm.results[0]), _shape(op.results[0])
    if not keep or any(_shape(x)[d] != 1 for d in dims):
        return None
    new_dims = [_kept(reduced, target, d) for d in dims]
    if None in new_dims:
        return None
    moved = _apply(tm, x)
    # size-1 dims the reshape merges become one (1x1 -> 1): reducing it once is the same identity
    return [moved, _like(op, [moved.results[0]], target, dim_arg=_i32(sorted(set(new_dims))))]


def _down_reduction(op, i):
    tm, keep = op.operands[0].owner, scalar(op.prop("keep_dim"))
    x = tm.operands[0]
    source, seen = _shape(x), _shape(op.operands[0])
    dims = _dims(op, "dim_arg", len(seen))
    if tm.name == "ttir.permute":
        perm = _perm(tm)
        new_dims = sorted(perm[d] for d in dims)
    elif len(dims) == len(seen):
        new_dims = list(range(len(source)))
    else:
        mapped = [_kept(seen, source, d) for d in dims if seen[d] != 1]
        if None in mapped or not mapped:
            return None
        new_dims = sorted(mapped)
    shape = [1 if j in new_dims else n for j, n in enumerate(source)] if keep else \
        [n for j, n in enumerate(source) if j not in new_dims]
    new = _like(op, [x], shape, dim_arg=_i32(new_dims))
    out = _shape(op.results[0])
    if tm.name == "ttir.reshape":
        return [new] if shape == out else [new, _reshape(tm, new.results[0], out)]
    kept = [j for j in range(len(source)) if keep or j not in new_dims]
    order = [perm[d] for d in range(len(seen)) if keep or d not in dims]
    after = [kept.index(j) for j in order]
    return [new] if after == sorted(after) else [new, _permute(tm, new.results[0], after)]


def _up_softmax(op, tm):
    x = op.operands[0]
    dim = scalar(op.prop("dimension")) % len(_shape(x))
    new_dim = _perm(tm).index(dim) if tm.name == "ttir.permute" else _kept(_shape(x), _shape(tm.results[0]), dim)
    if new_dim is None:
        return None
    moved = _apply(tm, x)
    return [moved, _like(op, [moved.results[0]], _shape(tm.results[0]), dimension=KINDS["si32"].build(new_dim))]


def _down_softmax(op, i):
    tm = op.operands[0].owner
    x, seen = tm.operands[0], _shape(op.operands[0])
    dim = scalar(op.prop("dimension")) % len(seen)
    new_dim = _perm(tm)[dim] if tm.name == "ttir.permute" else _kept(seen, _shape(x), dim)
    if new_dim is None:
        return None
    new = _like(op, [x], _shape(x), dimension=KINDS["si32"].build(new_dim))
    return [new, _apply(tm, new.results[0])]


def _slices(op) -> list[tuple[int, int, int]]:
    shape = _shape(op.operands[0])
    spec = []
    for n, b, e, s in zip(shape, *(int_values(op.prop(a)) for a in ("begins", "ends", "step"))):
        spec.append((b + n if b < 0 else b, e + n if e < 0 else min(e, n), s))
    return spec


def _sliced(spec, shape) -> list[int]:
    return [len(range(b, e, s)) for b, e, s in spec]


def _slice_like(op, value, spec) -> Operation:
    return _like(op, [value], _sliced(spec, _shape(value)), begins=_i32(b for b, _, _ in spec),
                 ends=_i32(e for _, e, _ in spec), step=_i32(s for _, _, s in spec))


def _spec_through(spec, full: list[int], before: list[int], after: list[int]):
    """A slice `spec` of a tensor of shape `full` moved across a reshape `before` -> `after` (full and before differ
    only in the sliced dims): the spec there and the shape it slices, or None if a sliced dim does not survive."""
    moved, sizes = [(0, n, 1) for n in after], list(after)
    for d, (b, e, s) in enumerate(spec):
        if (b, e, s) == (0, full[d], 1):
            continue
        at = _kept(before, after, d)
        if at is None:
            return None
        moved[at], sizes[at] = (b, e, s), full[d]
    return moved, sizes


def _up_slice(op, tm):
    x, spec = op.operands[0], _slices(op)
    if tm.name == "ttir.permute":
        perm = _perm(tm)
        moved = _permute(tm, x, perm)
        return [moved, _slice_like(op, moved.results[0], [spec[p] for p in perm])]
    moved_spec = _spec_through(spec, _shape(x), _shape(op.results[0]), _shape(tm.results[0]))
    if moved_spec is None:
        return None
    moved = _reshape(tm, x, moved_spec[1])
    return [moved, _slice_like(op, moved.results[0], moved_spec[0])]


def _down_slice(op, i):
    tm, spec = op.operands[0].owner, _slices(op)
    x, seen = tm.operands[0], _shape(op.operands[0])
    source = _shape(x)
    if tm.name == "ttir.permute":
        new_spec = [None] * len(spec)
        for d, p in enumerate(_perm(tm)):
            new_spec[p] = spec[d]
    elif (moved_spec := _spec_through(spec, seen, seen, source)) is None:
        return None
    else:
        new_spec = moved_spec[0]
    new = _slice_like(op, x, new_spec)
    after = _apply(tm, new.results[0]) if tm.name == "ttir.permute" else \
        _reshape(tm, new.results[0], _shape(op.results[0]))
    return [new, after]


def _up_concat(op, tm):
    out, target = _shape(op.results[0]), _shape(tm.results[0])
    dim = scalar(op.prop("dim")) % len(out)
    if tm.name == "ttir.permute":
        new_dim = _perm(tm).index(dim)
        moved = [_apply(tm, v) for v in op.operands]
    else:
        new_dim = _kept(out, target, dim)
        if new_dim is None:
            return None
        moved = [_reshape(tm, v, [_shape(v)[dim] if j == new_dim else n for j, n in enumerate(target)])
                 for v in op.operands]
    return [*moved, _like(op, [m.results[0] for m in moved], target, dim=KINDS["si32"].build(new_dim))]


def _down_concat(op, i):
    tm = op.operands[i].owner
    if tm.name != "ttir.permute":  # the pieces' reshapes differ along the concat dim: no common inverse
        return None
    perm, out = _perm(tm), _shape(op.results[0])
    dim = scalar(op.prop("dim")) % len(out)
    inverses = {j: _inverse(tm, v) for j, v in enumerate(op.operands) if not _identical(v.owner, tm)}
    pieces = [inverses[j].results[0] if j in inverses else v.owner.operands[0] for j, v in enumerate(op.operands)]
    shape = [0] * len(out)
    for d, p in enumerate(perm):
        shape[p] = out[d]
    new = _like(op, pieces, shape, dim=KINDS["si32"].build(perm[dim]))
    return [*inverses.values(), new, _apply(tm, new.results[0])]


def _broadcast_too_high(factors: list[int]) -> bool:
    return any(f > 1 and len(factors) - 1 - d >= MAX_BROADCAST_RTL for d, f in enumerate(factors))


def _up_broadcast(op, tm):
    x, factors, target = op.operands[0], int_values(op.prop("broadcast_dimensions")), _shape(tm.results[0])
    if tm.name == "ttir.permute":
        perm = _perm(tm)
        moved, new_factors = _permute(tm, x, perm), [factors[p] for p in perm]
    else:
        source, new_factors = _shape(x), [1] * len(target)
        shape = list(target)
        for src, dst in _runs(_shape(op.results[0]), target):
            grown = [d for d in src if factors[d] > 1]
            if grown and any(factors[d] == 1 and source[d] > 1 for d in src):
                return None  # a run mixing broadcast and real data cannot be reshaped before the broadcast
            if grown:
                for j in dst:
                    shape[j], new_factors[j] = 1, target[j]
        if math.prod(shape) != math.prod(source):
            return None
        moved = _reshape(tm, x, shape)
    if _broadcast_too_high(factors) or _broadcast_too_high(new_factors):
        return None
    return [moved, _like(op, [moved.results[0]], target,
                         broadcast_dimensions=KINDS["i64_darray"].build(new_factors))]


def _norm_trailing(op) -> int:
    shape = op.prop("normalized_shape")
    return len(int_values(shape)) if shape is not None else 1


def _norm_follows(op) -> list[int]:
    """The operands of a norm that have its input's shape (input, residual) and so take the TM."""
    groups, start, follow = op.operand_groups(), 0, []
    for name in (n.rstrip("?*") for n in op.ROW.operands):
        if name in ("input", "residual"):
            follow += range(start, start + len(groups[name]))
        start += len(groups[name])
    return follow


def _keeps_trailing(op, before: list[int], after: list[int], tm) -> bool:
    k = _norm_trailing(op)
    if tm.name == "ttir.permute":
        return _perm(tm)[-k:] == list(range(len(before) - k, len(before)))
    return len(after) >= k and before[-k:] == after[-k:]


def _up_norm(op, tm):
    if not _keeps_trailing(op, _shape(op.results[0]), _shape(tm.results[0]), tm):
        return None
    follow = _norm_follows(op)
    moved = {j: _apply(tm, op.operands[j]) for j in follow}
    operands = [moved[j].results[0] if j in moved else v for j, v in enumerate(op.operands)]
    return [*moved.values(), _like(op, operands, _shape(tm.results[0]))]


def _down_norm(op, i):
    tm, follow = op.operands[i].owner, _norm_follows(op)
    if i not in follow or not _keeps_trailing(op, _shape(tm.operands[0]), _shape(op.operands[i]), tm):
        return None
    inverses = {j: _inverse(tm, op.operands[j]) for j in follow if j != i}
    operands = [tm.operands[0] if j == i else inverses[j].results[0] if j in inverses else v
                for j, v in enumerate(op.operands)]
    new = _like(op, operands, _shape(tm.operands[0]))
    return [*inverses.values(), new, _apply(tm, new.results[0])]


Rule = Callable[..., "list[Operation] | None"]
# op kind: (up, down, operands that must follow the TM when it goes down: "all" or those the rule names)
RULES: dict[str, tuple[Rule, Rule | None, bool]] = {
    "elementwise": (_up_elementwise, _down_elementwise, True),
    "reduction": (_up_reduction, _down_reduction, False),
    "softmax": (_up_softmax, _down_softmax, False),
    "slice_static": (_up_slice, _down_slice, False),
    "concat": (_up_concat, _down_concat, True),
    "broadcast": (_up_broadcast, None, False),  # downwards a broadcast meets no inverse upstream keeps for it
    "norm": (_up_norm, _down_norm, False),
}


def _kind(op: Operation) -> str | None:
    if not isinstance(op, TTOp) or not op.name.startswith("ttir.") or len(op.results) != 1:
        return None
    family = op.ROW.family
    if family in ("unary", "binary"):  # as upstream's: a where's TMs stay where they are
        return "elementwise"
    if family == "reduction":
        return "reduction"
    if op.ROW.name in ("layer_norm", "rms_norm", "distributed_rms_norm"):
        return "norm"
    return op.ROW.name if op.ROW.name in RULES else None


def _high_rank_collapse(tm: Operation) -> bool:
    return tm.name == "ttir.reshape" and len(_shape(tm.operands[0])) >= HIGH_RANK and \
        len(_shape(tm.results[0])) < len(_shape(tm.operands[0]))


class _Constants:
    """Which values are computed only from constants and constant (parameter/constant) arguments: TMs there are
    paid once (const-eval), so a TM is not pulled off such a path and does not count."""

    def __init__(self):
        self.known: dict[SSAValue, bool] = {}

    def __call__(self, value: SSAValue) -> bool:
        stack = [value]
        while stack:
            top = stack[-1]
            if top in self.known:
                stack.pop()
                continue
            if isinstance(top, BlockArgument):
                self.known[top] = ttcore.is_constant_argument(top)
                stack.pop()
                continue
            owner = top.owner
            if isinstance(owner, TTOp) and owner.ROW.family in CONSTANT_FAMILIES:
                self.known[top] = True
                stack.pop()
                continue
            pending = [v for v in owner.operands if v not in self.known]
            if pending:
                stack.extend(pending)
                continue
            self.known[top] = bool(owner.operands) and all(self.known[v] for v in owner.operands)
            stack.pop()
        return self.known[value]


def _has_flattened(func: FuncOp) -> bool:
    return any(isinstance(a, FlattenedCompatInfoAttr) for op in func.walk()
               for a in (*op.attributes.values(), *op.properties.values()))


def _replace(old: list[Operation], anchor: Operation, new: list[Operation]) -> None:
    """Insert `new` before `anchor`; every result of `old` reads the last new op's result; `old` goes."""
    for op in new:
        anchor.parent.insert_op_before(op, anchor)
    for op in old:
        op.results[0].replace_all_uses_with(new[-1].results[0])
    for op in old:
        if op.parent is not None and not op.results[0].uses:
            Rewriter.erase_op(op)


@dataclass(frozen=True)
class TTIREraseInverseOpsPass(ModulePass):
    """Commute reshapes and permutes through the graph so that inverse pairs meet and cancel."""

    name: ClassVar[str] = "ttir-erase-inverse-ops"
    enable_commute_upwards: bool = True
    enable_commute_downwards: bool = True
    max_iterations: int = 100
    force: bool = True

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.max_iterations < 1:
            raise PassFailure(module, f"max-iterations must be at least 1, got {self.max_iterations}")
        for func in [op for op in module.walk() if isinstance(op, FuncOp) and op.body.blocks]:
            if self.force or _has_flattened(func):
                self._converge(func)

    def _converge(self, func: FuncOp) -> None:
        # one memo for the function: a rewrite computes a value anew from the same sources, so whether a value is
        # made from constants never changes
        constants, previous = _Constants(), None
        for _ in range(self.max_iterations):
            self._sweep(func, True, constants)
            above = self._count(func, constants)
            self._sweep(func, False, constants)
            counts = (above, self._count(func, constants))
            if counts == previous:
                if counts[0] <= counts[1]:  # as good above: TMs nearer the inputs (on arguments, const-eval's)
                    self._sweep(func, True, constants)
                return
            previous = counts
        raise PassFailure(func, f"EraseInverseOps: TM count has not converged after {self.max_iterations} "
                                "iterations.")

    @staticmethod
    def _count(func: FuncOp, constants: _Constants) -> tuple[int, int, int]:
        """TMs not on constant paths, then the elements they move (fewer TMs first; of as many, smaller ones), then
        the tiles the other ops' results fill: a (32, 1, N) result pads to 32 times the tiles of (32, N)."""
        tms, tiles = [], 0
        for op in func.walk():
            if len(op.results) != 1 or not isinstance(op.results[0].type, TensorType) or constants(op.results[0]):
                continue
            if op.name in TMS:
                tms.append(op)
            else:
                tiles += math.prod(physical_shape(tuple(_shape(op.results[0])), tiled=True))
        return len(tms), sum(math.prod(_shape(op.results[0])) for op in tms), tiles

    def _sweep(self, func: FuncOp, up: bool, constants: _Constants) -> None:
        if not (self.enable_commute_upwards if up else self.enable_commute_downwards):
            return
        changed = True
        while changed:
            changed = False
            for op in list(func.walk()):
                if op.parent is None or (kind := _kind(op)) is None:
                    continue
                changed |= self._up(op, kind) if up else self._down(op, kind, constants)
            _fold_tms(func)

    @staticmethod
    def _up(op: Operation, kind: str) -> bool:
        users = [use.operation for use in op.results[0].uses]
        if not users or not all(_identical(u, users[0]) for u in users) or _high_rank_collapse(users[0]):
            return False
        new = RULES[kind][0](op, users[0])
        if new is None:
            return False
        _replace(users, op, new)
        if not op.results[0].uses:
            Rewriter.erase_op(op)
        return True

    @staticmethod
    def _down(op: Operation, kind: str, constants: _Constants) -> bool:
        _, down, all_follow = RULES[kind]
        if down is None:
            return False
        for i, value in enumerate(op.operands):
            tm = value.owner
            if not (isinstance(tm, Operation) and tm.name in TMS) or constants(value) or \
                    not value.has_one_use() or _high_rank_collapse(tm):
                continue
            if all_follow and not all(j == i or _identical(v.owner, tm) or constants(v)
                                      for j, v in enumerate(op.operands)):
                continue  # other operands would need a new TM each, with no inverse in sight
            new = down(op, i)
            if new is None:
                continue
            _replace([op], op, new)
            if not tm.results[0].uses:
                Rewriter.erase_op(tm)
            return True
        return False


def _fold_tms(func: FuncOp) -> None:
    """Identity TMs go (a permute of size-1 dimensions to the same shape too), consecutive ones become one,
    unused ones are erased (the TMs' canonicalizations)."""
    from ttmlir.dialects.canonicalize import FOLDS, REWRITES

    changed = True
    while changed:
        changed = False
        for op in reversed(list(func.walk())):
            if op.name not in TMS or op.parent is None:
                continue
            short = op.name.split(".")[1]
            same = FOLDS[short](op) or (op.operands[0] if op.name == "ttir.permute" and _in_place(op) and
                                        op.results[0].type == op.operands[0].type else None)
            if same is not None:
                op.results[0].replace_all_uses_with(same)
            elif (merged := REWRITES[short](op) or _permute_reshape_permute(op)) is not None:
                _replace([op], op, merged)
                changed = True
            if op.parent is not None and not op.results[0].uses:
                Rewriter.erase_op(op)
                changed = True


def _labels(shape: list[int]) -> list[list[tuple[int, ...]]]:
    return [[(d,)] if n != 1 else [] for d, n in enumerate(shape)]


def _reshaped_labels(labels, before: list[int], after: list[int]):
    """Which pieces of the original axes each dimension holds after a reshape (None if a run both merges and
    splits axes, which scrambles them)."""
    out: list[list[tuple[int, ...]]] = [[] for _ in after]
    for src, dst in _runs(before, after):
        pieces = [piece for d in src for piece in labels[d]]
        real = [j for j in dst if after[j] != 1]
        if len(real) == 1:
            out[real[0]] = pieces
        elif len(real) > 1:
            if len(pieces) != 1:
                return None
            for k, j in enumerate(real):
                out[j] = [pieces[0] + (k,)]
    return out


def _permute_reshape_permute(op: Operation) -> list[Operation] | None:
    """permute, reshape, permute that together leave every element in order: one reshape of the first input."""
    reshape = op.operands[0].owner if op.name == "ttir.permute" else None
    first = reshape.operands[0].owner if isinstance(reshape, Operation) and reshape.name == "ttir.reshape" else None
    if not (isinstance(first, Operation) and first.name == "ttir.permute"):
        return None
    source = _labels(_shape(first.operands[0]))
    labels = _reshaped_labels([source[p] for p in _perm(first)], _shape(reshape.operands[0]), _shape(op.operands[0]))
    if labels is None:
        return None
    order = [piece for p in _perm(op) for piece in labels[p]]
    if order != sorted(order):
        return None
    return [_reshape(op, first.operands[0], _shape(op.results[0]))]


def _in_place(permute: Operation) -> bool:
    """A permute moving only size-1 dimensions leaves every element where it was."""
    shape = _shape(permute.operands[0])
    moved = [d for d in _perm(permute) if shape[d] != 1]
    return moved == sorted(moved)
