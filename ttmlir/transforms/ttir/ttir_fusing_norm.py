"""The RMS-norm pattern of `--ttir-fusing`, as upstream's TTIRFusing has it:

    y = x * rsqrt(mean(x^2, last dim) + eps)    (x^2 as pow(x, 2) or x * x; the mean may be a scaled sum, fused
                                                 to a mean first, and may drop or keep its dim)
    y = gamma * y                               (optional; gamma broadcast from one value per last-dim element)

→ `rms_norm(x, gamma, epsilon = eps, normalized_shape = [D])`, found from the rsqrt. x may be computed in f32 from
a bf16 tensor with the result cast back (typecast in, typecast out): the norm then runs on the bf16 tensor, when it,
the result and gamma share that type. A reshape of x that keeps the last dim, undone after the norm, is dropped. An f32 x computed from bf16 values
cast up (a residual add) is cast back to bf16 for the norm, as upstream does.
Every intermediate op must have no other user.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from ttmlir.ir.props import KINDS, int_values
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


def _fuse(source: SSAValue, gamma: SSAValue | None, epsilon: float, out: SSAValue, dead: list) -> None:
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
        operands=[source, *([gamma] if gamma is not None else [])], result_types=[out.type],
        properties={"normalized_shape": KINDS["i64_darray"].build([width]), "epsilon": KINDS["f32"].build(epsilon),
                    "operandSegmentSizes": KINDS["i32_darray"].build([1, int(gamma is not None), 0])})
    for op in (*made, norm):
        op.location = root.location
    Rewriter.replace_op(root, [*made, norm])
    pending = [op for op in dead if op is not None]
    while erasable := [op for op in pending if op.parent is not None and not any(r.uses for r in op.results)]:
        for op in erasable:  # users first, so each producer is free once its users are gone
            Rewriter.erase_op(op)
            pending.remove(op)
