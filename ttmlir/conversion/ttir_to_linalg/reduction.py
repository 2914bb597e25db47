"""TTIR reductions (and the normalizations built on them) to TOSA reductions, one `tosa.reduce_*` per reduced
dimension; argmax as a `linalg.generic` carrying (value, index); cumsum as an `scf.for` over slices."""

from __future__ import annotations

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseIntOrFPElementsAttr, IndexType, IntegerAttr, TensorType, f32, i1
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from ttmlir.conversion.ttir_to_linalg.emitter import Emitter, element, float_value, is_float, lowest, scalar_attr, shape
from ttmlir.dialects.linalg_ext import DivOp

# ttir reduction -> the TOSA reduction that computes it (reduce_and/or read values as booleans first)
REDUCE = {"sum": "sum", "max": "max", "min": "min", "prod": "product", "reduce_and": "min", "reduce_or": "max"}


def _dims(op: Operation, rank: int) -> list[int]:
    dims = op.prop("dim_arg")
    if dims is None:
        return list(range(rank))
    return sorted({int(d.value.data) % rank for d in dims.data})


def _reduce_dims(e: Emitter, name: str, x: SSAValue, dims: list[int]) -> SSAValue:
    for d in dims:
        x = e.reduce(name, x, d)
    return x


def _as_truth_values(e: Emitter, x: SSAValue) -> SSAValue:
    """1 where x is nonzero, else 0, in x's type (a linalg.generic of a compare and a select)."""
    t = element(x)

    def body(v):
        zero = arith.ConstantOp(scalar_attr(0, t)).results[0]
        one = arith.ConstantOp(scalar_attr(1, t)).results[0]
        nonzero = (arith.CmpfOp(v, zero, "une") if is_float(t) else arith.CmpiOp(v, zero, "ne")).results[0]
        return arith.SelectOp(nonzero, one, zero).results[0]
    return e.map_elements([x], x.type, body)


def reduction(e: Emitter, op: Operation) -> SSAValue:
    name = op.name.split(".")[1]
    x = op.operands[0]
    if name in ("reduce_and", "reduce_or"):
        x = _as_truth_values(e, x)
    reduced = _reduce_dims(e, REDUCE[name], x, _dims(op, len(shape(x))))
    return e.reshape(reduced, op.results[0].type.get_shape())


def mean(e: Emitter, op: Operation) -> SSAValue:
    x, out = op.operands[0], op.results[0].type
    if not is_float(element(x)):
        convert = arith.UIToFPOp if element(x) == i1 else arith.SIToFPOp
        t = out.element_type if is_float(out.element_type) else f32
        x = e.map_elements([x], TensorType(t, shape(x)), lambda v: convert(v, t).results[0])
    dims = _dims(op, len(shape(x)))
    total = e.reshape(_reduce_dims(e, "sum", x, dims), out.get_shape())
    n = 1
    for d in dims:
        n *= shape(op.operands[0])[d]
    divisor = e.const(DenseIntOrFPElementsAttr.from_list(total.type, [n]))
    return e.named(DivOp, [total, divisor], total.type)


def argmax(e: Emitter, op: Operation) -> SSAValue:
    """One pass over the input: the accumulator keeps the largest value so far and its index (along the reduced
    dimension, or flat over all of them); the first of equal values wins."""
    x, out = op.operands[0], op.results[0].type
    rank, sizes = len(shape(x)), shape(x)
    dims = _dims(op, rank)
    kept = [d for d in range(rank) if d not in dims]
    value_t, index_t = TensorType(element(x), [sizes[d] for d in kept]), TensorType(out.element_type,
                                                                                 [sizes[d] for d in kept])
    out_map = AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in kept))
    best = e.fill(lowest(element(x)), value_t)
    where = e.fill(0, index_t)
    t = element(x)

    def body(v, best_v, best_i):
        flat = None
        for d in dims:
            index = linalg.IndexOp(d).results[0]
            if flat is None:
                flat = index
            else:
                size = arith.ConstantOp(IntegerAttr(sizes[d], IndexType())).results[0]
                flat = arith.AddiOp(arith.MuliOp(flat, size).results[0], index).results[0]
        flat = arith.IndexCastOp(flat, out.element_type).results[0]
        larger = (arith.CmpfOp(v, best_v, "ogt") if is_float(t) else arith.CmpiOp(v, best_v, "sgt")).results[0]
        return [arith.SelectOp(larger, v, best_v).results[0], arith.SelectOp(larger, flat, best_i).results[0]]

    iterators = ["reduction" if d in dims else "parallel" for d in range(rank)]
    _, indices = e.generic([x], [AffineMap.identity(rank), out_map, out_map], [best, where], iterators, body)
    return e.reshape(indices, out.get_shape())


def cumsum(e: Emitter, op: Operation) -> SSAValue:
    """for i in 1..n: out[i] = out[i - 1] + x[i], as slices of the accumulated tensor."""
    x = op.operands[0]
    sizes, rank = shape(x), len(shape(x))
    dim = op.prop("dim").value.data % rank
    index = lambda v: e.add(arith.ConstantOp(IntegerAttr(v, IndexType()))).results[0]
    lower, upper, step = index(1), index(sizes[dim]), index(1)
    slice_sizes = [1 if d == dim else s for d, s in enumerate(sizes)]
    slice_t = TensorType(element(x), slice_sizes)
    block = Block(arg_types=[IndexType(), x.type])
    i, acc = block.args
    one = arith.ConstantOp(IntegerAttr(1, IndexType()))
    before = arith.SubiOp(i, one.results[0])
    offsets_at = lambda v: [v if d == dim else 0 for d in range(rank)]
    previous = tensor.ExtractSliceOp(acc, offsets_at(before.results[0]), slice_sizes, [1] * rank, slice_t)
    current = tensor.ExtractSliceOp(acc, offsets_at(i), slice_sizes, [1] * rank, slice_t)
    init = tensor.EmptyOp([], slice_t)
    total = linalg.AddOp([previous.results[0], current.results[0]], [init.results[0]], [slice_t])
    inserted = tensor.InsertSliceOp.get(total.results[0], acc, slice_sizes, offsets=[i],
                                        static_offsets=[DYNAMIC_INDEX if d == dim else 0 for d in range(rank)])
    ops = [one, before, previous, current, init, total, inserted]
    for new in ops:
        block.add_op(new)
    block.add_op(scf.YieldOp(inserted.results[0]))
    return e.add(scf.ForOp(lower, upper, step, [x], Region(block))).results[0]


def softmax(e: Emitter, op: Operation) -> SSAValue:
    """exp(x - max) / sum(exp(x - max)) along `dimension`."""
    x = op.operands[0]
    axis = op.prop("dimension").value.data % len(shape(x))
    shifted = e.binary("sub", x, e.reduce("max", x, axis))
    exps = e.unary("exp", shifted)
    return e.mul(exps, e.unary("reciprocal", e.reduce("sum", exps, axis)))


def layer_norm(e: Emitter, op: Operation) -> SSAValue:
    """(x - mean) * rsqrt(var + eps) over the trailing `normalized_shape` dimensions, then * weight + bias."""
    groups = op.operand_groups()
    x = groups["input"][0]
    rank, normalized = len(shape(x)), len(op.prop("normalized_shape").get_values())
    dims = list(range(rank - normalized, rank))
    n = 1
    for d in dims:
        n *= shape(x)[d]
    total = _reduce_dims(e, "sum", x, dims)
    inverse_n = e.unary("reciprocal", e.like(n, x))
    mean_ = e.mul(total, inverse_n)
    centered = e.binary("sub", x, mean_)
    variance = e.mul(_reduce_dims(e, "sum", e.mul(centered, centered), dims), inverse_n)
    epsilon = float_value(op.prop("epsilon"))
    inverse_std = e.unary("rsqrt", e.binary("add", variance, e.like(epsilon, x)))
    y = e.mul(centered, inverse_std)
    if groups.get("weight"):
        y = e.mul(y, e.to_rank(groups["weight"][0], rank))
    if groups.get("bias"):
        y = e.binary("add", y, e.to_rank(groups["bias"][0], rank))
    return y


PATTERNS = {**{name: reduction for name in REDUCE}, "mean": mean, "argmax": argmax, "cumsum": cumsum,
            "softmax": softmax, "layer_norm": layer_norm}
