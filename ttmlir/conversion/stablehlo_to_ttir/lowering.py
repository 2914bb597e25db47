"""What every StableHLO -> TTIR pattern shares: the `Builder` that creates TTIR ops before the op being converted,
readers of values (shapes, splat constants), broadcasting and run-time windows in TTIR, and `refuse`, the located
error of a pattern that does not take a form of its op."""

from __future__ import annotations

import itertools
import math

from xdsl.dialects.builtin import BytesAttr, DenseArrayBase, DenseIntOrFPElementsAttr, IntegerType, TensorType, i32
from xdsl.ir import Attribute, Operation, SSAValue

from ttmlir.dialects import stablehlo as shlo
from ttmlir.dialects.tt_rewrites import is_splat
from ttmlir.errors import PassFailure
from ttmlir.ir.props import KINDS


class Builder:
    """Builds TTIR ops before the op being converted; property values are Python values, built by their kind."""

    def __init__(self, op: Operation):
        self.op = op
        self.ops: list[Operation] = []

    def ttir(self, name: str, operands, result_type: Attribute | list, **props) -> SSAValue:
        return self.ttir_op(name, operands, result_type, **props).results[0]

    def ttir_op(self, name: str, operands, result_type, segments=None, **props) -> Operation:
        """`segments`: how many operands each of the op's operand groups has (ops with several optional ones)."""
        from ttmlir.dialects.ttir import TTIR_OP_CLASSES
        cls = TTIR_OP_CLASSES[name]
        kinds = {p: kind for p, kind, _, _ in cls.ROW.props}
        built = {k: v if isinstance(v, Attribute) else KINDS[kinds[k]].build(v) for k, v in props.items()
                 if v is not None}
        if segments is not None:
            built["operandSegmentSizes"] = DenseArrayBase.from_list(i32, segments)
        types_ = result_type if isinstance(result_type, list) else [result_type]
        new = cls.create(operands=list(operands), result_types=types_, properties=built)
        new.location = self.op.location
        self.ops.append(new)
        return new

    def ttir_segmented(self, name: str, operands, result_type, segments, **props) -> SSAValue:
        return self.ttir_op(name, operands, result_type, segments, **props).results[0]

    def reshape(self, value: SSAValue, shape) -> SSAValue:
        if tuple(value.type.get_shape()) == tuple(shape):
            return value
        return self.ttir("reshape", [value], TensorType(value.type.element_type, list(shape)), shape=list(shape))

    def splat(self, value: float | int, t: TensorType) -> SSAValue:
        """A `ttir.constant` of one value everywhere (stored once, as MLIR stores a splat)."""
        return self.ttir("constant", [], t, value=DenseIntOrFPElementsAttr(t, BytesAttr(t.element_type.pack([value]))))

    def constant(self, value: float | int, like: TensorType, shape=None) -> SSAValue:
        shape = list(like.get_shape()) if shape is None else list(shape)
        t = TensorType(like.element_type, shape)
        return self.ttir("full", [], t, shape=shape, fill_value=value)


def tensor(value: SSAValue) -> TensorType:
    return value.type


def shape(value: SSAValue) -> tuple[int, ...]:
    return tuple(value.type.get_shape())


def is_bool(t) -> bool:
    element = t.element_type
    return isinstance(element, IntegerType) and element.width.data == 1


def splat_of(value: SSAValue) -> float | int | None:
    """The one value every element of `value` holds, when it is a constant (through broadcasts, reshapes and
    conversions; before or after they are lowered)."""
    from ttmlir.ir.tt_op import TTOp
    owner = value.owner
    while getattr(owner, "name", None) in PASS_THROUGH:
        owner = owner.operands[0].owner
    if isinstance(owner, TTOp) and owner.ROW.name == "full":
        return owner.prop("fill_value").value.data
    attr = owner.attr("value") if isinstance(owner, shlo.StableHLOOp) and owner.name == "stablehlo.constant" else \
        owner.prop("value") if isinstance(owner, TTOp) and owner.ROW.name == "constant" else None
    if not isinstance(attr, DenseIntOrFPElementsAttr) or not is_splat(attr):
        return None
    return attr.get_element_type().unpack(attr.data.data, 1)[0]


def refuse(op: Operation, why: str) -> PassFailure:
    """The error of a pattern that does not take this form of its op."""
    return PassFailure(op, f"failed to legalize operation '{op.name}': {why}")


PASS_THROUGH = frozenset({"stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.convert", "ttir.reshape",
                          "ttir.broadcast", "ttir.typecast"})


def broadcast_to(b: Builder, value: SSAValue, target: tuple[int, ...], dims=None) -> SSAValue:
    """`value` broadcast to `target`, its dimension i becoming target's `dims[i]` (trailing ones by default)."""
    src = shape(value)
    dims = list(range(len(target) - len(src), len(target))) if dims is None else list(dims)
    if dims != sorted(dims):  # a broadcast that also reorders: the operand permuted first
        order = sorted(range(len(dims)), key=lambda i: dims[i])
        value = b.ttir("permute", [value], TensorType(value.type.element_type, [src[i] for i in order]),
                       permutation=order)
        src, dims = tuple(src[i] for i in order), sorted(dims)
    expanded = [1] * len(target)
    for i, d in enumerate(dims):
        expanded[d] = src[i]
    value = b.reshape(value, expanded)
    repeats = [t // e if e != t else 1 for t, e in zip(target, expanded)]
    return b.ttir("broadcast", [value], TensorType(value.type.element_type, list(target)),
                  broadcast_dimensions=repeats)


def slice_from(b: Builder, operand: SSAValue, starts: list[SSAValue], sizes, result_type) -> SSAValue:
    """A window of `sizes` at run-time `starts` (one-element tensors, one a dim), clamped to stay inside."""
    starts_type = TensorType(starts[0].type.element_type, [len(starts)])

    def const(values) -> SSAValue:
        return b.ttir("constant", [], starts_type, value=DenseIntOrFPElementsAttr.from_list(starts_type, values))
    begins = b.ttir("concat", [b.reshape(s, [1]) for s in starts], starts_type, dim=0)
    begins = b.ttir("clamp_tensor", [begins, const([0] * len(starts)),
                                     const([d - n for d, n in zip(shape(operand), sizes)])], starts_type)
    ends = b.ttir("add", [begins, const(list(sizes))], starts_type)
    return b.ttir("slice_dynamic", [operand, begins, ends], result_type)


def permute(b: Builder, value, order):
    if list(order) == sorted(order):
        return value
    src = shape(value)
    return b.ttir("permute", [value], TensorType(value.type.element_type, [src[i] for i in order]),
                  permutation=list(order))


def inverse(order) -> list[int]:
    inv = [0] * len(order)
    for i, o in enumerate(order):
        inv[o] = i
    return inv


def interior_pad(b: Builder, x: SSAValue, interior, value) -> SSAValue:
    """Elements spread apart by `interior` fill values: the input scattered at its elements' (constant) positions
    into a flat tensor of the fill value."""
    src = shape(x)
    spread = [n + (n - 1) * g if n else 0 for n, g in zip(src, interior)]
    strides = [math.prod(spread[i + 1:]) for i in range(len(spread))]
    positions = [sum(c * (g + 1) * st for c, g, st in zip(coords, interior, strides))
                 for coords in itertools.product(*(range(n) for n in src))]
    size, count = math.prod(spread), math.prod(src)
    index_type = TensorType(IntegerType(64), [count])
    index = b.ttir("constant", [], index_type, value=DenseIntOrFPElementsAttr.from_list(index_type, positions))
    flat_type = TensorType(x.type.element_type, [size])
    flat = b.ttir("scatter", [b.constant(value, flat_type), index, b.reshape(x, [count])], flat_type, dim=0,
                  scatter_reduce_type="invalid")
    return b.reshape(flat, spread)
