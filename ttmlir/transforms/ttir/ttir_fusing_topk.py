"""`--ttir-fusing`'s sort fusion: a sort whose results are only cut to the first (or last) k entries along the
sorted dim by slices becomes a `topk` of k.

Taking the first k of a sort keeps its direction (`largest = descending`); taking the last k keeps the other
end (`largest = not descending`), as upstream's TopKFusingPattern decides, always sorted."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, Signedness, TensorType
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.ir.props import KINDS, int_values, scalar
from ttmlir.ir.tt_op import TTOp


def _only_slice(result) -> Operation | None | bool:
    """The one slice reading `result`; None when nothing reads it; False for any other use."""
    uses = list(result.uses)
    if not uses:
        return None
    user = uses[0].operation
    return user if len(uses) == 1 and isinstance(user, TTOp) and user.name == "ttir.slice_static" else False


def _window(slice_op: Operation, dim: int, shape) -> tuple[int, bool] | None:
    """k and whether the slice takes the last k, when it cuts only `dim`, with step 1, at one end."""
    begins, ends, steps = (int_values(slice_op.prop(key)) for key in ("begins", "ends", "step"))
    for i, size in enumerate(shape):
        if i != dim and (begins[i], ends[i], steps[i]) != (0, size, 1):
            return None
    if steps[dim] != 1:
        return None
    if begins[dim] == 0:
        return ends[dim], False
    if ends[dim] == shape[dim]:
        return shape[dim] - begins[dim], True
    return None


def sort_into_topk(sort: Operation) -> None:
    values, indices = (_only_slice(r) for r in sort.results)
    if values is False or indices is False or (values is None and indices is None):
        return
    if values is not None and indices is not None and \
            any(values.prop(key) != indices.prop(key) for key in ("begins", "ends", "step")):
        return
    source = sort.operands[0].type
    shape = source.get_shape()
    dim = scalar(sort.prop("dim")) % len(shape)
    window = _window(values or indices, dim, shape)
    if window is None:
        return
    k, from_end = window
    cut = [*shape[:dim], k, *shape[dim + 1:]]
    types = [values.results[0].type if values is not None else TensorType(source.element_type, cut),
             indices.results[0].type if indices is not None else
             TensorType(IntegerType(32, Signedness.SIGNED), cut)]
    props = {"k": KINDS["i32"].build(k), "dim": KINDS["i32"].build(dim),
             "largest": KINDS["bool"].build(bool(scalar(sort.prop("descending"))) != from_end),
             "sorted": KINDS["bool"].build(True)}
    topk = TTIR_OP_CLASSES["topk"].create(operands=[sort.operands[0]], result_types=types, properties=props)
    topk.location = sort.location
    Rewriter.insert_op(topk, InsertPoint.before(sort))
    for slice_op, result in ((values, topk.results[0]), (indices, topk.results[1])):
        if slice_op is not None:
            Rewriter.replace_op(slice_op, [], [result])
    Rewriter.erase_op(sort)
