"""A reduction (`ttir.sum`, `ttir.mean`, `ttir.max`) over one dim the tiles do not reduce (one folded into the batch
of the collapsed matrices, or a matrix's rows when there are several matrices), written (in `--ttir-to-d2m`, before
its ops convert) as a `ttir.permute` moving that dim last, the reduction over the last dim (keep_dim) and a
`ttir.reshape` to the result: the other dims keep their order, so the reduced tensor's elements are the result's in
row-major order."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import TensorType

from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.errors import derive
from ttmlir.ir.props import KINDS
from ttmlir.ir.tt_op import TTOp


def _folded_dim(op: TTOp) -> int | None:
    """The one dim of size above 1 the reduction folds that the tiles do not (None when they do, or when it folds
    several dims: the conversion names what it refuses)."""
    shape = tuple(op.operands[0].type.get_shape())
    dims = op.properties.get("dim_arg")
    if dims is None or len(shape) < 2:
        return None
    folded = [d for d in sorted({d.value.data % len(shape) for d in dims.data}) if shape[d] != 1]
    if len(folded) != 1:
        return None
    dim = folded[0]
    tiled = dim == len(shape) - 1 or (dim == len(shape) - 2 and math.prod(shape[:-2]) == 1)
    return None if tiled else dim


def permuted_reduction(op: TTOp) -> list[TTOp]:
    """The ops replacing reduction `op` where it was (see the module doc), or `op` itself when the tiles reduce its
    dim."""
    dim = _folded_dim(op)
    if dim is None:
        return [op]
    (value,) = op.operands
    shape = list(value.type.get_shape())
    order = [d for d in range(len(shape)) if d != dim] + [dim]
    moved = [shape[d] for d in order]
    element = value.type.element_type
    last = len(shape) - 1
    permute = TTIR_OP_CLASSES["permute"].create(
        operands=[value], result_types=[TensorType(element, moved)],
        properties={"permutation": KINDS["i64_darray"].build(order)})
    properties = dict(op.properties)
    properties["dim_arg"] = KINDS["i32_array"].build([last])
    properties["keep_dim"] = KINDS["bool"].build(True)
    reduced = TTIR_OP_CLASSES[op.name.removeprefix("ttir.")].create(
        operands=[permute.results[0]], result_types=[TensorType(op.results[0].type.element_type,
                                                                [*moved[:-1], 1])], properties=properties)
    result = op.results[0]
    reshape = TTIR_OP_CLASSES["reshape"].create(
        operands=[reduced.results[0]], result_types=[result.type],
        properties={"shape": KINDS["i32_array"].build(list(result.type.get_shape()))})
    made = [permute, reduced, reshape]
    derive(made, op)
    op.parent_block().insert_ops_before(made, op)
    result.replace_all_uses_with(reshape.results[0])
    op.detach()
    op.erase()
    return made


PERMUTED_REDUCTIONS = {name: permuted_reduction for name in ("sum", "mean", "max")}
