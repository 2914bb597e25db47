"""The TOSA ops `--tosa-to-linalg` lowers to `linalg.generic`s whose indexing maps do the work: data movement
(transpose, reshape, tile, concat; a slice is a `tensor.extract_slice`), reductions (into an init filled with the reduction's identity) and
`tosa.matmul` (a reduction over k). Each reads its operand through an affine map of the result's index:
a reshape's linearizes the result index and splits it by the operand's strides (floordiv/mod), so no data
movement op needs a buffer view."""

from __future__ import annotations

from typing import Callable

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, i1
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap

from ttmlir.conversion.ttir_to_linalg.emitter import Emitter, is_float, lowest
from ttmlir.errors import PassFailure
from ttmlir.ir.sizes import row_major_strides


def shape_operand(op: Operation, index: int) -> list[int]:
    """The values of a `tosa.const_shape` operand."""
    owner = op.operands[index].owner
    values = owner.properties.get("values") if isinstance(owner, Operation) else None
    if not isinstance(values, DenseIntOrFPElementsAttr):
        raise PassFailure(op, f"failed to legalize operation '{op.name}': its shape operand is not a constant")
    return [int(v) for v in values.get_values()]


def _copy(e: Emitter, source: SSAValue, out: TensorType, source_map: AffineMap) -> SSAValue:
    rank = len(out.get_shape())
    return e.generic([source], [source_map, AffineMap.identity(rank)], [e.empty(out)], ["parallel"] * rank,
                     lambda x, _: [x])[0]


def transpose(e: Emitter, op: Operation) -> SSAValue:
    perms = [int(p) for p in op.properties["perms"].get_values()]
    out = op.results[0].type
    where = {source: k for k, source in enumerate(perms)}  # the result dimension reading each operand dimension
    exprs = tuple(AffineDimExpr(where[j]) for j in range(len(perms)))
    return _copy(e, op.operands[0], out, AffineMap(len(perms), 0, exprs))


def reshape(e: Emitter, op: Operation) -> SSAValue:
    out = op.results[0].type
    target, source = out.get_shape(), op.operands[0].type.get_shape()
    linear: AffineExpr = AffineConstantExpr(0)
    for k, stride in enumerate(row_major_strides(target)):
        linear = linear + AffineDimExpr(k) * stride
    exprs = []
    for j, (size, stride) in enumerate(zip(source, row_major_strides(source))):
        index = linear // stride if stride != 1 else linear
        exprs.append(index % size if j else index)
    return _copy(e, op.operands[0], out, AffineMap(len(target), 0, tuple(exprs)))


def tile(e: Emitter, op: Operation) -> SSAValue:
    source = op.operands[0].type.get_shape()
    exprs = tuple(AffineConstantExpr(0) if size == 1 else AffineDimExpr(j) % size for j, size in enumerate(source))
    return _copy(e, op.operands[0], op.results[0].type, AffineMap(len(source), 0, exprs))


def slice_(e: Emitter, op: Operation) -> SSAValue:
    """A `tensor.extract_slice`: its iteration space is the slice's, not the operand's."""
    start, sizes = shape_operand(op, 1), shape_operand(op, 2)
    return e.add(tensor.ExtractSliceOp(op.operands[0], start, sizes, [1] * len(start), op.results[0].type)).results[0]


def concat(e: Emitter, op: Operation) -> SSAValue:
    """Each operand written into its place along the axis of one result buffer (a generic per operand)."""
    axis, out = op.properties["axis"].value.data, op.results[0].type
    rank, offset, result = len(out.get_shape()), 0, e.empty(out)
    for value in op.operands:
        exprs = tuple(AffineDimExpr(k) + offset if k == axis else AffineDimExpr(k) for k in range(rank))
        result = e.generic([value], [AffineMap.identity(rank), AffineMap(rank, 0, exprs)], [result],
                           ["parallel"] * rank, lambda x, _: [x])[0]
        offset += value.type.get_shape()[axis]
    return result


def _combine(kind: str) -> Callable:
    def combine(x: SSAValue, acc: SSAValue) -> list[SSAValue]:
        floating = is_float(x.type)
        if kind == "sum":
            return [(arith.AddfOp if floating else arith.AddiOp)(x, acc).result]
        if kind == "product":
            return [(arith.MulfOp if floating else arith.MuliOp)(x, acc).result]
        if kind == "max":
            return [(arith.MaximumfOp if floating else arith.MaxSIOp)(x, acc).result]
        if kind == "min":
            return [(arith.MinimumfOp if floating else arith.MinSIOp)(x, acc).result]
        return [(arith.AndIOp if kind == "all" else arith.OrIOp)(x, acc).result]
    return combine


def _identity(kind: str, t) -> float | int:
    if kind == "max":
        return lowest(t)
    if kind == "min":
        return float("inf") if is_float(t) else (1 << (t.width.data - 1)) - 1 if t != i1 else 1
    return {"sum": 0, "product": 1, "all": 1, "any": 0}[kind]


def reduce(e: Emitter, op: Operation) -> SSAValue:
    kind, axis = op.name.removeprefix("tosa.reduce_"), op.properties["axis"].value.data
    out = op.results[0].type
    rank = len(out.get_shape())
    init = e.fill(_identity(kind, out.element_type), out)
    exprs = tuple(AffineConstantExpr(0) if k == axis else AffineDimExpr(k) for k in range(rank))
    iterators = ["reduction" if k == axis else "parallel" for k in range(rank)]
    return e.generic([op.operands[0]], [AffineMap.identity(rank), AffineMap(rank, 0, exprs)], [init], iterators,
                     _combine(kind))[0]


def matmul(e: Emitter, op: Operation) -> SSAValue:
    """[b, m, k] x [b, k, n] -> [b, m, n], accumulated in the result's type."""
    out = op.results[0].type
    t = out.element_type
    d = [AffineDimExpr(i) for i in range(4)]  # b, m, n, k
    maps = [AffineMap(4, 0, (d[0], d[1], d[3])), AffineMap(4, 0, (d[0], d[3], d[2])), AffineMap(4, 0, tuple(d[:3]))]

    def body(a, b, acc):
        if is_float(t):
            return [arith.AddfOp(acc, arith.MulfOp(a, b).result).result]
        wide = [x if x.type == t else arith.ExtSIOp(x, t).result for x in (a, b)]
        return [arith.AddiOp(acc, arith.MuliOp(*wide).result).result]
    return e.generic(list(op.operands[:2]), maps, [e.fill(0, out)], ["parallel"] * 3 + ["reduction"], body)[0]


STRUCTURED: dict[str, Callable[[Emitter, Operation], SSAValue]] = {
    "transpose": transpose, "reshape": reshape, "tile": tile, "slice": slice_, "concat": concat, "matmul": matmul,
    **{f"reduce_{k}": reduce for k in ("sum", "product", "max", "min", "all", "any")},
}
