"""TTIR's shape and data-movement ops, matmuls and creation ops to TOSA, `tensor` and `linalg`."""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.builtin import (DenseArrayBase, DenseIntOrFPElementsAttr, IndexType, IntegerAttr, TensorType, i32,
                                   i64)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from ttmlir.conversion.ttir_to_linalg.emitter import Emitter, element, float_value, is_float, scalar_attr, shape


def _result(op: Operation) -> TensorType:
    return op.results[0].type


def _ints(attr) -> list[int]:
    if isinstance(attr, DenseArrayBase):
        return [int(v) for v in attr.get_values()]
    return [int(a.value.data) for a in attr.data]


def reshape(e: Emitter, op: Operation) -> SSAValue:
    return e.reshape(op.operands[0], _result(op).get_shape())


def transpose(e: Emitter, op: Operation) -> SSAValue:
    rank = len(shape(op.operands[0]))
    d0, d1 = (op.prop(n).value.data % rank for n in ("dim0", "dim1"))
    perms = list(range(rank))
    perms[d0], perms[d1] = perms[d1], perms[d0]
    return e.transpose(op.operands[0], perms)


def permute(e: Emitter, op: Operation) -> SSAValue:
    return e.transpose(op.operands[0], _ints(op.prop("permutation")))


def repeat(e: Emitter, op: Operation) -> SSAValue:
    multiples = _ints(op.prop("repeat_dimensions"))
    return e.tosa("tile", [op.operands[0], e.const_shape(multiples)], _result(op))


def broadcast(e: Emitter, op: Operation) -> SSAValue:
    x = e.to_rank(op.operands[0], len(_result(op).get_shape()))
    multiples = [o // i for o, i in zip(_result(op).get_shape(), shape(x))]
    if all(m == 1 for m in multiples):
        return x
    return e.tosa("tile", [x, e.const_shape(multiples)], _result(op))


def concat(e: Emitter, op: Operation) -> SSAValue:
    rank = len(_result(op).get_shape())
    axis = op.prop("dim").value.data % rank
    return e.tosa("concat", list(op.operands), _result(op), axis=IntegerAttr(axis, i32))


def concatenate_heads(e: Emitter, op: Operation) -> SSAValue:
    """[B, heads, S, D] -> [B, S, heads, D] -> [B, S, heads * D]."""
    return e.reshape(e.transpose(op.operands[0], [0, 2, 1, 3]), _result(op).get_shape())


def pad(e: Emitter, op: Operation) -> SSAValue:
    x = op.operands[0]
    padding = _ints(op.prop("padding"))
    value = e.add(arith.ConstantOp(scalar_attr(float_value(op.prop("value")), element(x)))).results[0]
    return pad_with(e, x, padding[0::2], padding[1::2], value)


def pad_with(e: Emitter, x: SSAValue, low, high, value: SSAValue) -> SSAValue:
    """`tensor.pad` of `x` by `low`/`high` per dimension, filled with the scalar `value`."""
    out = TensorType(element(x), [s + lo + hi for s, lo, hi in zip(shape(x), low, high)])
    block = Block(arg_types=[IndexType()] * len(low))
    block.add_op(tensor.YieldOp(value))
    return e.add(tensor.PadOp(x, [], [], Region(block), list(low), list(high), out)).results[0]


def slice_static(e: Emitter, op: Operation) -> SSAValue:
    rank = len(shape(op.operands[0]))
    begins, steps = _ints(op.prop("begins")), _ints(op.prop("step"))
    begins = [b % s if b < 0 else b for b, s in zip(begins, shape(op.operands[0]))]
    return e.add(tensor.ExtractSliceOp(op.operands[0], begins[:rank], list(_result(op).get_shape()), steps[:rank],
                                       _result(op))).results[0]


def squeeze(e: Emitter, op: Operation) -> SSAValue:
    return e.reshape(op.operands[0], _result(op).get_shape())


def _matmul3(e: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    """tosa.matmul of two rank-3 tensors, the batch of size 1 tiled to the other's (TOSA needs equal batches)."""
    batch = max(shape(a)[0], shape(b)[0])
    if shape(a)[0] != batch:
        a = e.tosa("tile", [a, e.const_shape([batch, 1, 1])], TensorType(element(a), [batch, *shape(a)[1:]]))
    if shape(b)[0] != batch:
        b = e.tosa("tile", [b, e.const_shape([batch, 1, 1])], TensorType(element(b), [batch, *shape(b)[1:]]))
    out = TensorType(element(a), [batch, shape(a)[1], shape(b)[2]])
    return e.tosa("matmul", [a, b, e.zero_point(element(a)), e.zero_point(element(b))], out)


def _as_batched(e: Emitter, x: SSAValue, transpose_last: bool) -> SSAValue:
    """A matmul operand as [batch, rows, cols] (batch dimensions folded), its last two swapped on request."""
    sizes = shape(x)
    if len(sizes) == 1:
        sizes = (1, sizes[0]) if not transpose_last else (sizes[0], 1)
        x = e.reshape(x, sizes)
    if transpose_last:
        perms = list(range(len(sizes)))
        perms[-1], perms[-2] = perms[-2], perms[-1]
        x = e.transpose(x, perms)
        sizes = shape(x)
    batch = 1
    for s in sizes[:-2]:
        batch *= s
    return e.reshape(x, (batch, sizes[-2], sizes[-1]))


def matmul(e: Emitter, op: Operation) -> SSAValue:
    a, b = op.operands[0], op.operands[1]
    ta = op.prop("transpose_a") if "transpose_a" in {p for p, *_ in op.ROW.props} else None
    tb = op.prop("transpose_b") if "transpose_b" in {p for p, *_ in op.ROW.props} else None
    product = _matmul3(e, _as_batched(e, a, bool(ta and ta.value.data)), _as_batched(e, b, bool(tb and tb.value.data)))
    out = _result(op)
    result = e.reshape(product, out.get_shape())
    if op.name == "ttir.linear" and len(op.operands) > 2:
        bias = e.to_rank(op.operands[2], len(out.get_shape()))
        result = e.tosa("add", [result, bias], out)
    return result


def embedding(e: Emitter, op: Operation) -> SSAValue:
    """Each output row is the weight row the index names: a `linalg.generic` over the output reading the index
    and extracting the weight element."""
    indices, weight = op.operands[0], op.operands[1]
    out = _result(op)
    rank = len(out.get_shape())
    index_map = AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in range(rank - 1)))

    def body(index, _init):
        row = arith.IndexCastOp(index, IndexType()).results[0]
        column = linalg.IndexOp(rank - 1).results[0]
        return [tensor.ExtractOp(weight, [row, column], element(weight)).results[0]]
    return e.generic([indices], [index_map, AffineMap.identity(rank)], [e.empty(out)], ["parallel"] * rank, body)[0]


def arange(e: Emitter, op: Operation) -> SSAValue:
    """start + i * step along `arange_dimension`."""
    out = _result(op)
    rank, t = len(out.get_shape()), out.element_type
    dim = op.prop("arange_dimension").value.data
    start, step = op.prop("start").value.data, op.prop("step").value.data

    def body(_init):
        index = linalg.IndexOp(dim).results[0]
        if is_float(t):
            as_int = arith.IndexCastOp(index, i64).results[0]
            value = arith.SIToFPOp(as_int, t).results[0]
            scaled = arith.MulfOp(value, arith.ConstantOp(scalar_attr(step, t)).results[0]).results[0]
            return [arith.AddfOp(scaled, arith.ConstantOp(scalar_attr(start, t)).results[0]).results[0]]
        value = arith.IndexCastOp(index, t).results[0]
        scaled = arith.MuliOp(value, arith.ConstantOp(scalar_attr(step, t)).results[0]).results[0]
        return [arith.AddiOp(scaled, arith.ConstantOp(scalar_attr(start, t)).results[0]).results[0]]
    return e.generic([], [AffineMap.identity(rank)], [e.empty(out)], ["parallel"] * rank, body)[0]


def constant(e: Emitter, op: Operation) -> SSAValue:
    value = op.prop("value")
    if not isinstance(value, DenseIntOrFPElementsAttr):
        raise e.fail("only dense constants are lowered")
    return e.const(value)


def full(e: Emitter, op: Operation) -> SSAValue:
    out = _result(op)
    fill = op.prop("fill_value")
    value = fill.value.data if fill is not None else (1 if op.name == "ttir.ones" else 0)
    return e.const(DenseIntOrFPElementsAttr.from_list(out, [value]))


def empty(e: Emitter, op: Operation) -> SSAValue:
    return e.empty(_result(op))


PATTERNS = {
    "reshape": reshape, "transpose": transpose, "permute": permute, "repeat": repeat, "broadcast": broadcast,
    "concat": concat, "concatenate_heads": concatenate_heads, "pad": pad, "slice_static": slice_static,
    "squeeze": squeeze, "unsqueeze": squeeze, "matmul": matmul, "linear": matmul, "embedding": embedding,
    "arange": arange, "constant": constant, "full": full, "zeros": full, "ones": full, "empty": empty,
}
