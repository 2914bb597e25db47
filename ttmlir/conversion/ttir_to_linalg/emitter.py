"""Building blocks the TTIR -> Linalg patterns share: TOSA ops and their constants, `tensor.empty`/`linalg.fill`
inits, and `linalg.generic` ops whose body is written as a Python function over the block's arguments."""

from __future__ import annotations

from typing import Callable, Sequence

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, tensor
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.builtin import (AffineMapAttr, BFloat16Type, DenseArrayBase, DenseIntOrFPElementsAttr,
                                   Float16Type, Float32Type, Float64Type, FloatAttr, IndexType, IntegerAttr,
                                   TensorType, i8, i32)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from ttmlir.dialects.tosa import TOSA_OP_CLASSES
from ttmlir.dialects.tosa.types import ShapeType
from ttmlir.errors import PassFailure

FLOATS = (BFloat16Type, Float16Type, Float32Type, Float64Type)


def is_float(t: Attribute) -> bool:
    return isinstance(t, FLOATS)


def shape(value: SSAValue) -> tuple[int, ...]:
    return tuple(value.type.get_shape())


def element(value: SSAValue) -> Attribute:
    return value.type.element_type


def scalar_attr(value: float | int, element_type: Attribute) -> Attribute:
    return FloatAttr(float(value), element_type) if is_float(element_type) else IntegerAttr(int(value), element_type)


def lowest(element_type: Attribute) -> float | int:
    """The identity of a max: -inf for floats, the smallest integer otherwise."""
    if is_float(element_type):
        return float("-inf")
    width = element_type.width.data
    return 0 if width == 1 else -(1 << (width - 1))


class Emitter:
    """Builds ops in place of one TTIR op (each gets its location)."""

    def __init__(self, op: Operation):
        self.op = op
        self.ops: list[Operation] = []

    def add(self, new: Operation) -> Operation:
        new.location = self.op.location
        self.ops.append(new)
        return new

    def fail(self, message: str) -> PassFailure:
        return PassFailure(self.op, f"failed to legalize operation '{self.op.name}': {message}")

    # -- TOSA ------------------------------------------------------------------------------------------------
    def tosa(self, name: str, operands: Sequence[SSAValue], result_type: Attribute, **attrs) -> SSAValue:
        new = TOSA_OP_CLASSES[name].create(operands=list(operands), result_types=[result_type],
                                           properties={k: v for k, v in attrs.items() if v is not None})
        return self.add(new).results[0]

    def const(self, values: DenseIntOrFPElementsAttr) -> SSAValue:
        return self.tosa("const", [], values.type, values=values)

    def splat(self, value: float | int, element_type: Attribute, rank: int) -> SSAValue:
        """A one-element constant of `rank` ones, which TOSA broadcasts against any operand of that rank."""
        t = TensorType(element_type, [1] * rank)
        return self.const(DenseIntOrFPElementsAttr.from_list(t, [value]))

    def like(self, value: float | int, of: SSAValue) -> SSAValue:
        return self.splat(value, element(of), len(shape(of)))

    def shift(self) -> SSAValue:
        return self.const(DenseIntOrFPElementsAttr.from_list(TensorType(i8, [1]), [0]))

    def zero_point(self, element_type: Attribute) -> SSAValue:
        return self.const(DenseIntOrFPElementsAttr.from_list(TensorType(element_type, [1]), [0]))

    def const_shape(self, sizes: Sequence[int]) -> SSAValue:
        values = DenseIntOrFPElementsAttr.from_list(TensorType(IndexType(), [len(sizes)]), [int(s) for s in sizes])
        return self.tosa("const_shape", [], ShapeType(len(sizes)), values=values)

    def reshape(self, value: SSAValue, sizes: Sequence[int]) -> SSAValue:
        if shape(value) == tuple(sizes):
            return value
        return self.tosa("reshape", [value, self.const_shape(sizes)], TensorType(element(value), list(sizes)))

    def to_rank(self, value: SSAValue, rank: int) -> SSAValue:
        """`value` with leading ones up to `rank` (TOSA broadcasts only between equal ranks)."""
        return self.reshape(value, (1,) * (rank - len(shape(value))) + shape(value))

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.tosa("mul", [a, b, self.shift()], _broadcast_type(a, b))

    def binary(self, name: str, a: SSAValue, b: SSAValue, element_type: Attribute | None = None) -> SSAValue:
        if name == "mul":
            return self.mul(a, b)
        t = _broadcast_type(a, b)
        return self.tosa(name, [a, b], TensorType(element_type, t.get_shape()) if element_type else t)

    def unary(self, name: str, x: SSAValue) -> SSAValue:
        if name == "negate":
            zp = self.zero_point(element(x))
            return self.tosa("negate", [x, zp, zp], x.type)
        return self.tosa(name, [x], x.type)

    def cast(self, value: SSAValue, element_type: Attribute) -> SSAValue:
        if element(value) == element_type:
            return value
        return self.tosa("cast", [value], TensorType(element_type, shape(value)))

    def transpose(self, value: SSAValue, perms: Sequence[int]) -> SSAValue:
        out = TensorType(element(value), [shape(value)[p] for p in perms])
        return self.tosa("transpose", [value], out, perms=DenseArrayBase.from_list(i32, list(perms)))

    def reduce(self, name: str, value: SSAValue, axis: int) -> SSAValue:
        sizes = list(shape(value))
        sizes[axis] = 1
        return self.tosa(f"reduce_{name}", [value], TensorType(element(value), sizes), axis=IntegerAttr(axis, i32))

    # -- tensor / linalg ---------------------------------------------------------------------------------------
    def empty(self, t: TensorType) -> SSAValue:
        return self.add(tensor.EmptyOp([], t)).results[0]

    def fill(self, value: float | int, t: TensorType) -> SSAValue:
        scalar = self.add(arith.ConstantOp(scalar_attr(value, t.element_type))).results[0]
        return self.add(linalg.FillOp([scalar], [self.empty(t)], [t])).results[0]

    def named(self, cls, inputs: Sequence[SSAValue], t: TensorType, init: SSAValue | None = None, **props) -> SSAValue:
        """A named linalg op (`linalg.add`, `linalg.div`, a pooling op) into a fresh (or given) init."""
        init = init if init is not None else self.empty(t)
        if props:
            return self.add(cls(list(inputs), [init], [t], **props)).results[0]
        return self.add(cls(list(inputs), [init], [t])).results[0]

    def generic(self, inputs: Sequence[SSAValue], maps: Sequence[AffineMap], inits: Sequence[SSAValue],
                iterators: Sequence[str], body: Callable[..., Sequence[SSAValue]]) -> list[SSAValue]:
        """A `linalg.generic`; `body(*scalars)` builds the region's ops (with the xDSL builder) and returns the
        values to yield. `maps` index the inputs, then the inits."""
        arg_types = [element(v) for v in (*inputs, *inits)]
        block = Block(arg_types=arg_types)
        with ImplicitBuilder(block):
            results = body(*block.args)
            linalg.YieldOp(*results)
        op = linalg.GenericOp(list(inputs), list(inits), Region(block), [AffineMapAttr(m) for m in maps],
                              [IteratorTypeAttr.parallel() if i == "parallel" else IteratorTypeAttr.reduction()
                               for i in iterators], [v.type for v in inits])
        return list(self.add(op).results)

    def map_elements(self, inputs: Sequence[SSAValue], out: TensorType,
                     body: Callable[..., SSAValue]) -> SSAValue:
        """An elementwise `linalg.generic` over `out`'s shape; inputs of lower rank or size-1 dimensions are
        broadcast by their indexing maps (no copies)."""
        rank = len(out.get_shape())
        maps = [broadcast_map(shape(v), out.get_shape()) for v in inputs] + [AffineMap.identity(rank)]
        return self.generic(inputs, maps, [self.empty(out)], ["parallel"] * rank,
                            lambda *args: [body(*args[:len(inputs)])])[0]


def broadcast_map(source: Sequence[int], target: Sequence[int]) -> AffineMap:
    """The map reading a `source`-shaped operand at an index of `target`'s shape, numpy's broadcasting rules:
    trailing dimensions align, size-1 dimensions read index 0."""
    rank, offset = len(target), len(target) - len(source)
    exprs = [AffineConstantExpr(0) if size == 1 and target[offset + i] != 1 else AffineDimExpr(offset + i)
             for i, size in enumerate(source)]
    return AffineMap(rank, 0, tuple(exprs))


def _broadcast_type(a: SSAValue, b: SSAValue) -> TensorType:
    sa, sb = shape(a), shape(b)
    return TensorType(element(a), [max(x, y) for x, y in zip(sa, sb)])


def float_value(attr: Attribute) -> float:
    return float(attr.value.data)
