"""The RMS-norm patterns of `--ttir-fusing`, as upstream's TTIRFusing has them:

    y = x * rsqrt(mean(x^2, last dim) + eps)    (x^2 as pow(x, 2) or x * x; the mean may be a scaled sum, fused
                                                 to a mean first, and may drop or keep its dim)
    y = gamma * y                               (optional; gamma broadcast from one value per last-dim element)

→ `rms_norm(x, gamma, epsilon = eps, normalized_shape = [D])`, found from the rsqrt. x may be computed in f32 from
a bf16 tensor with the result cast back (typecast in, typecast out): the norm then runs on the bf16 tensor, when it,
the result and gamma share that type. A reshape of x that keeps the last dim, undone after the norm, is dropped. An f32 x computed from bf16 values
cast up (a residual add) is cast back to bf16 for the norm, as upstream does.

F.normalize's form, over any one dim of x, is an RMS norm too:

    y = x / max(sqrt(sum(x^2, dim)), eps) * sqrt(D)    (D that dim's size; the max as a clamp to [eps, +inf) with
                                                        eps at most 1e-3, or absent; the sqrt as sqrt or pow(_, 0.5))
    y = gamma * y                                      (optional; gamma one value per element along the dim)

→ `rms_norm(x, gamma, epsilon = eps^2 / D)`, x's dim moved last by a permute and back after when it is not the last:
x / sqrt(mean(x^2) + eps^2 / D) is the same for every x whose norm is above eps, and 0 for a zero x alike.
Every intermediate op must have no other user.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

import math

from ttmlir.ir.props import KINDS, int_values, scalar
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttir import TTIR_OP_CLASSES

VIEWS = ("ttir.reshape", "ttir.broadcast")


def _owner(value: SSAValue, name: str) -> Operation | None:
    op = value.owner
    return op if isinstance(op, TTOp) and op.name == "ttir." + name else None


def _through_views(value: SSAValue, chain: list[Operation]) -> SSAValue:
    """The value under single-use reshapes and broadcasts (collected in `chain`)."""
    while isinstance(value.owner, TTOp) and value.owner.name in VIEWS and value.has_one_use():
        chain.append(value.owner)
        value = value.owner.operands[0]
    return value


def _splat(value: SSAValue) -> float | None:
    from ttmlir.dialects.tt_rewrites import constant_fill
    fill = constant_fill(value)
    return None if fill is None else float(fill)


def _only_user(value: SSAValue) -> Operation | None:
    uses = list(value.uses)
    return uses[0].operation if len(uses) == 1 else None


def _square_of(value: SSAValue) -> SSAValue | None:
    """x when `value` is pow(x, 2) or x * x (used once)."""
    if not value.has_one_use():
        return None
    if (op := _owner(value, "pow")) is not None and _splat(op.operands[1]) == 2.0:
        return op.operands[0]
    if (op := _owner(value, "multiply")) is not None and op.operands[0] is op.operands[1]:
        return op.operands[0]
    return None


def _widened(x: SSAValue, element) -> bool:
    """x computed elementwise from values cast up from `element` (so it holds `element` data, widened)."""
    op = x.owner
    return isinstance(op, TTOp) and op.ROW.family == "binary" and all(
        (cast := _owner(v, "typecast")) is not None and cast.operands[0].type.element_type == element
        for v in op.operands)


def _narrowed(x: SSAValue, element) -> SSAValue:
    """x cast back to `element`, right after it is computed."""
    cast = TTIR_OP_CLASSES["typecast"].create(
        operands=[x], result_types=[TensorType(element, x.type.get_shape())],
        properties={"conservative_folding": KINDS["bool"].build(False)})
    cast.location = x.owner.location
    x.owner.parent.insert_op_after(cast, x.owner)
    return cast.results[0]


def rms_norm(rsqrt: Operation) -> None:
    chain: list[Operation] = [rsqrt]
    total = _owner(rsqrt.operands[0], "add")
    if total is None or not rsqrt.operands[0].has_one_use():
        return
    for mean_side, eps_side in (total.operands, reversed(total.operands)):
        epsilon = _splat(eps_side)
        mean = _owner(_through_views(mean_side, chain), "mean")
        if epsilon is not None and mean is not None and mean.results[0].has_one_use():
            break
    else:
        return
    x = _square_of(mean.operands[0])
    if x is None:
        return
    shape = list(x.type.get_shape())
    if mean.prop("dim_arg") is None or [d % len(shape) for d in int_values(mean.prop("dim_arg"))] != [len(shape) - 1]:
        return
    # the rsqrt, viewed back to x's shape, multiplies x
    scaled = _only_user(rsqrt.results[0])
    while scaled is not None and scaled.name in VIEWS:
        chain.append(scaled)
        scaled = _only_user(scaled.results[0])
    if scaled is None or scaled.name != "ttir.multiply" or x not in scaled.operands:
        return
    out, gamma, tail = scaled.results[0], None, [scaled]
    if (cast := _only_user(out)) is not None and cast.name == "ttir.typecast":
        out, tail = cast.results[0], [*tail, cast]
    if (weighted := _only_user(out)) is not None and weighted.name == "ttir.multiply":
        other = weighted.operands[1] if weighted.operands[0] is out else weighted.operands[0]
        views: list[Operation] = []
        source = _through_views(other, views)
        width = shape[-1]
        if list(source.type.get_shape())[-1:] == [width] and all(d == 1 for d in source.type.get_shape()[:-1]):
            gamma, out, tail = source, weighted.results[0], [*tail, weighted, *views]
    source = x.owner.operands[0] if (typecast := _owner(x, "typecast")) is not None else x
    element = out.type.element_type
    if source.type.element_type != element and _widened(x, element):
        source = _narrowed(x, element)
    if source.type.element_type != element or list(out.type.get_shape()) != shape or \
            (gamma is not None and gamma.type.element_type != element):
        return
    _fuse(source, gamma, epsilon, out, [*reversed(tail), *chain, total, mean, mean.operands[0].owner, typecast])


NORM_FLOOR = 1e-3  # the largest clamp floor read as F.normalize's eps rather than a clamp that matters
UNBOUNDED = 1e38    # a clamp's ceiling at least this is no ceiling


def _floor(value: SSAValue, chain: list[Operation]) -> tuple[SSAValue, float]:
    """`value` under a clamp to [eps, +inf) (collected in `chain`) and eps; `value` and 0 without one."""
    clamp = _owner(value, "clamp_tensor") or _owner(value, "clamp_scalar")
    if clamp is None or not value.has_one_use():
        return value, 0.0
    if clamp.name == "ttir.clamp_tensor":
        low, high = _splat(clamp.operands[1]), _splat(clamp.operands[2])
    else:
        low, high = (float(scalar(clamp.prop(n))) for n in ("min", "max"))
    if low is None or high is None or not 0.0 <= low <= NORM_FLOOR or high < UNBOUNDED:
        return value, math.nan
    chain.append(clamp)
    return clamp.operands[0], low


def _root_of(value: SSAValue) -> SSAValue | None:
    """x when `value` (used once) is sqrt(x) or pow(x, 0.5)."""
    if not value.has_one_use():
        return None
    if (op := _owner(value, "sqrt")) is not None:
        return op.operands[0]
    if (op := _owner(value, "pow")) is not None and _splat(op.operands[1]) == 0.5:
        return op.operands[0]
    return None


def normalized_rms_norm(scaled: Operation) -> None:
    """F.normalize's RMS norm, found from its multiply by sqrt(D)."""
    for quotient, factor in (scaled.operands, reversed(scaled.operands)):
        divide, scale = _owner(quotient, "div"), _splat(factor)
        if divide is not None and scale is not None and quotient.has_one_use():
            break
    else:
        return
    x, chain = divide.operands[0], [scaled, divide]
    denominator, eps = _floor(_through_views(divide.operands[1], chain), chain)
    root = _root_of(denominator)
    total = _owner(_through_views(root, chain), "sum") if root is not None else None
    if math.isnan(eps) or total is None or not total.results[0].has_one_use() or \
            _square_of(total.operands[0]) is not x or total.prop("dim_arg") is None:
        return
    shape, dims = list(x.type.get_shape()), int_values(total.prop("dim_arg"))
    if len(dims) != 1:
        return
    dim = dims[0] % len(shape)
    size = shape[dim]
    if abs(scale - math.sqrt(size)) > 1e-3 * math.sqrt(size) or list(scaled.results[0].type.get_shape()) != shape:
        return
    chain += [denominator.owner, total, total.operands[0].owner]
    out, gamma = scaled.results[0], None
    if (weighted := _only_user(out)) is not None and weighted.name == "ttir.multiply":
        other = weighted.operands[1] if weighted.operands[0] is out else weighted.operands[0]
        views: list[Operation] = []
        source = _through_views(other, views)
        along = [1] * len(shape)
        along[dim] = size  # gamma, viewed at x's rank, varies along the normalized dim only
        if any(list(v.type.get_shape()) == along for v in (other, *(view.operands[0] for view in views))) and \
                math.prod(source.type.get_shape()) == size and list(weighted.results[0].type.get_shape()) == shape:
            gamma, out, chain = source, weighted.results[0], [weighted, *views, *chain]
    element = out.type.element_type
    if x.type.element_type != element or (gamma is not None and gamma.type.element_type != element):
        return
    epsilon = eps * eps / size
    if dim == len(shape) - 1:
        _fuse(x, gamma, epsilon, out, chain)
        return
    order = [d for d in range(len(shape)) if d != dim] + [dim]
    moved = _permuted(x, order, scaled)
    _fuse(moved, gamma, epsilon, out, chain, restore=[order.index(d) for d in range(len(shape))])


def _permuted(value: SSAValue, order: list[int], at: Operation) -> SSAValue:
    shape = value.type.get_shape()
    permute = TTIR_OP_CLASSES["permute"].create(
        operands=[value], result_types=[TensorType(value.type.element_type, [shape[d] for d in order])],
        properties={"permutation": KINDS["i64_darray"].build(order)})
    permute.location = at.location
    at.parent.insert_op_before(permute, at)
    return permute.results[0]


def _fuse(source: SSAValue, gamma: SSAValue | None, epsilon: float, out: SSAValue, dead: list,
          restore: list[int] | None = None) -> None:
    """rms_norm(source, gamma) in place of `out`'s op; with `restore`, source is a permute of x and the norm's result
    is permuted by `restore` into out."""
    root = out.owner
    width = source.type.get_shape()[-1]
    made: list[Operation] = []
    if gamma is not None and gamma.type.get_num_dims() != 1:
        made.append(TTIR_OP_CLASSES["reshape"].create(
            operands=[gamma], result_types=[TensorType(gamma.type.element_type, [width])],
            properties={"shape": KINDS["i32_array"].build([width])}))
        gamma = made[-1].results[0]
    # a reshape keeping the last dim before the norm, undone right after it, goes with both
    reshape, back = _owner(source, "reshape"), _only_user(out)
    original = reshape.operands[0] if reshape is not None else None
    fold = reshape is not None and back is not None and back.name == "ttir.reshape" and \
        original.type.get_shape()[-1:] == source.type.get_shape()[-1:] and back.results[0].type == original.type
    if fold:
        source, out, root = original, back.results[0], back
    norm = TTIR_OP_CLASSES["rms_norm"].create(
        operands=[source, *([gamma] if gamma is not None else [])],
        result_types=[out.type if restore is None else source.type],
        properties={"normalized_shape": KINDS["i64_darray"].build([width]), "epsilon": KINDS["f32"].build(epsilon),
                    "operandSegmentSizes": KINDS["i32_darray"].build([1, int(gamma is not None), 0])})
    made.append(norm)
    if restore is not None:
        made.append(TTIR_OP_CLASSES["permute"].create(operands=[norm.results[0]], result_types=[out.type],
                                                      properties={"permutation": KINDS["i64_darray"].build(restore)}))
    for op in made:
        op.location = root.location
    Rewriter.replace_op(root, made)
    pending = [op for op in dead if op is not None]
    while erasable := [op for op in pending if op.parent is not None and not any(r.uses for r in op.results)]:
        for op in erasable:  # users first, so each producer is free once its users are gone
            Rewriter.erase_op(op)
            pending.remove(op)
