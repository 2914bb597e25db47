"""What `--canonicalize` computes for TTIR elementwise ops: folds of constant operands and algebraic identities.

Upstream's op folders evaluate an elementwise op whose operands are constants (`ttir.full`/`zeros`/`ones`/
`constant`) in the element type and materialize the result as the cheapest constant op: `zeros`/`ones` for a
splat of 0/1, `full` for another splat, `constant` otherwise. Splats stay splats; a non-splat result is made only
up to a million elements, and never from a splat operand smaller than the result (that would turn a small
tensor and an implicit broadcast into a large constant). Folds that would divide by zero are left to run.
Values are computed with numpy in the element type (bf16: in f32, rounded to nearest even).
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
from xdsl.dialects.builtin import (DenseIntOrFPElementsAttr, FloatAttr, Float32Type, IntegerAttr, IntegerType,
                                   Signedness)
from xdsl.ir import Attribute, Operation, SSAValue

from ttmlir.dialects.quant import storage_of
from ttmlir.ir.props import KINDS, int_values
from ttmlir.ir.canonicalization import sibling

FOLD_LIMIT = 1_000_000
INT32_RANGE = (-(1 << 31), (1 << 31) - 1)
_FLOATS = {"f64": np.float64, "f32": np.float32, "f16": np.float16, "bf16": np.float32}


def _dtype(element: Attribute):
    if element.name in _FLOATS:  # a float type's name is how it prints (f32, bf16), without printing it
        return _FLOATS[element.name]
    if not isinstance(element, IntegerType) or element.width.data not in (1, 8, 16, 32, 64):
        return None
    if element.width.data == 1:
        return np.uint8
    unsigned = element.signedness.data == Signedness.UNSIGNED
    return np.dtype(("u" if unsigned else "i") + str(element.width.data // 8)).type


def _stored(values: np.ndarray, element: Attribute) -> np.ndarray:
    """`values` as the element type stores them: bf16 rounded to nearest even, i1 to its low bit."""
    values = np.asarray(values).astype(_dtype(element))
    if element.name == "bf16":
        bits = values.view(np.uint32)
        rounded = (bits + np.uint32(0x7FFF) + ((bits >> 16) & 1)) & np.uint32(0xFFFF0000)
        values = np.where(np.isnan(values), values, rounded.view(np.float32))
    elif isinstance(element, IntegerType) and element.width.data == 1:
        values = values & 1
    return values


CONSTANTS = ("ttir.zeros", "ttir.ones", "ttir.full", "ttir.constant")  # the ops constant_array reads


def constant_array(value: SSAValue) -> np.ndarray | None:
    """A constant operand's values in its element type: a 0-d array for a splat, else the whole tensor."""
    owner, element = value.owner, value.type.element_type
    if not isinstance(owner, Operation) or _dtype(element) is None:
        return None
    if owner.name in ("ttir.zeros", "ttir.ones"):
        return _stored(np.array(int(owner.name == "ttir.ones")), element)
    if owner.name == "ttir.full":
        return _stored(np.array(owner.prop("fill_value").value.data), element)
    if owner.name == "ttir.constant" and isinstance(attr := owner.prop("value"), DenseIntOrFPElementsAttr):
        values = list(attr.get_values())
        if len(values) == 1:
            return _stored(np.array(values[0]), element)
        array = _stored(np.array(values), element).reshape(value.type.get_shape())
        return np.array(array.flat[0]) if array.size and (array == array.flat[0]).all() and \
            not np.isnan(array.flat[0]) else array
    return None


def fill_attr(value, element: Attribute) -> Attribute:
    """A `full` op's fill_value for one element value: an i32 (signed values saturated; unsigned and i1 values
    masked to their width, kept as the bit pattern) or an f32."""
    if isinstance(element, IntegerType):
        value = int(value)
        if element.signedness.data == Signedness.UNSIGNED or element.width.data == 1:
            # the i32 holds the bit pattern (ui32 4294967293 is -3), as splat_fill_value writes it; saturating
            # it to the signed range would turn every fill past 2^31 into 2^31 - 1
            return IntegerAttr(value & ((1 << min(element.width.data, 32)) - 1), 32)
        return IntegerAttr(min(max(value, INT32_RANGE[0]), INT32_RANGE[1]), 32)
    return FloatAttr(float(value), Float32Type())


def materialize(op: Operation, values: np.ndarray, result: Attribute | None = None) -> list[Operation]:
    """The constant op making `values` as `op`'s result (or of type `result`): zeros/ones/full for a splat, else
    a constant."""
    result = result or op.results[0].type
    shape = KINDS["i32_darray"].build(list(result.get_shape()))
    if values.ndim == 0:
        value = values.item()
        positive_zero = value == 0 and not (isinstance(value, float) and math.copysign(1, value) < 0)
        if positive_zero or value == 1:
            new = sibling(op, "ones" if value == 1 else "zeros").create(
                result_types=[result], properties={"shape": shape})
        else:
            new = sibling(op, "full").create(
                result_types=[result], properties={"shape": shape, "fill_value": fill_attr(value, result.element_type)})
    else:
        new = sibling(op, "constant").create(result_types=[result], properties={
            "value": DenseIntOrFPElementsAttr.from_list(result, values.reshape(-1).tolist())})
    new.location = op.location
    return [new]


def _is_float(op: Operation) -> bool:
    return str(op.results[0].type.element_type) in _FLOATS


def _unsigned(op: Operation) -> bool:
    element = op.results[0].type.element_type
    return isinstance(element, IntegerType) and element.signedness.data == Signedness.UNSIGNED


def _int_div(a, b):
    quotient = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -quotient, quotient)


# name: (float map or None, integer map or None); None means the op does not fold that kind of data
UNARY: dict[str, tuple[Callable | None, Callable | None]] = {
    "abs": (np.abs, np.abs), "neg": (np.negative, np.negative), "sign": (np.sign, np.sign),
    "logical_not": (lambda x: (x == 0).astype(x.dtype), lambda x: (x == 0).astype(x.dtype)),
    "bitwise_not": (None, np.invert), "isfinite": (lambda x: np.isfinite(x).astype(x.dtype), None),
    "reciprocal": (lambda x: 1 / x, None), "rsqrt": (lambda x: 1 / np.sqrt(x), None),
    **{name: (getattr(np, fn), None) for name, fn in (
        ("atan", "arctan"), ("cbrt", "cbrt"), ("ceil", "ceil"), ("cos", "cos"), ("exp", "exp"), ("expm1", "expm1"),
        ("floor", "floor"), ("log", "log"), ("log1p", "log1p"), ("sin", "sin"), ("sqrt", "sqrt"), ("tan", "tan"))},
}
NONZERO_OPERAND = {"reciprocal": 0, "rsqrt": 0, "div": 1, "remainder": 1}  # folding these would divide by zero


def _shift(left: bool) -> Callable:
    """A logical shift of the bit pattern; by the width or more it is 0."""
    def shift(a, b):
        a = np.asarray(a)
        bits = a.view(np.dtype(f"u{a.dtype.itemsize}"))
        by = np.asarray(b).astype(np.uint64)
        width = np.uint64(8 * a.dtype.itemsize)
        moved = (bits << np.minimum(by, width - 1).astype(bits.dtype)) if left else \
            (bits >> np.minimum(by, width - 1).astype(bits.dtype))
        return np.where(by >= width, 0, moved).astype(bits.dtype).view(a.dtype)
    return shift


def _compare(predicate):
    return (lambda a, b: predicate(a, b).astype(a.dtype),) * 2


BINARY: dict[str, tuple[Callable | None, Callable | None]] = {
    "add": (np.add, np.add), "subtract": (np.subtract, np.subtract), "multiply": (np.multiply, np.multiply),
    "div": (np.divide, _int_div), "remainder": (np.mod, np.mod), "maximum": (np.maximum, np.maximum),
    "minimum": (np.minimum, np.minimum), "pow": (np.power, None), "atan2": (np.arctan2, None),
    "eq": _compare(np.equal), "ne": _compare(np.not_equal), "ge": _compare(np.greater_equal),
    "gt": _compare(np.greater),
    "logical_and": _compare(lambda a, b: (a != 0) & (b != 0)), "logical_or": _compare(lambda a, b: (a != 0) | (b != 0)),
    "logical_left_shift": (None, _shift(True)), "logical_right_shift": (None, _shift(False)),
    "bitwise_and": (None, np.bitwise_and), "bitwise_or": (None, np.bitwise_or), "bitwise_xor": (None, np.bitwise_xor),
}
COMPARISONS = {"eq", "ne", "ge", "gt"}


def _clamp(op: Operation) -> tuple[Callable, Callable]:
    """clamp_scalar's map: float data between its bounds in the element type, integer data between them truncated."""
    low, high = (op.prop(n).value.data for n in ("min", "max"))
    element = op.results[0].type.element_type
    if str(element) in _FLOATS:
        low, high = (_stored(np.array(b), element) for b in (low, high))
    else:
        low, high = (np.array(int(b)).astype(_dtype(element)) for b in (low, high))
    return (lambda x: np.minimum(np.maximum(x, low), high),) * 2


def fold_constant_operands(op: Operation) -> list[Operation] | None:
    """A TTIR elementwise op of constants, computed (see the module doc)."""
    short = op.name.split(".", 1)[1]
    table = UNARY if short in UNARY else BINARY if short in BINARY else None
    if short == "clamp_scalar":
        table = {short: _clamp(op)}
    if table is None or not op.name.startswith("ttir.") or len(op.operands) != (2 if table is BINARY else 1):
        return None
    if not all(isinstance(v.owner, Operation) and v.owner.name in CONSTANTS for v in op.operands):
        return None  # before reading any operand's values (a splat constant's are one per element)
    arrays = [constant_array(v) for v in op.operands]
    if any(a is None for a in arrays):
        return None
    fn = table[short][0 if _is_float(op) else 1]
    if fn is None or (short in NONZERO_OPERAND and (arrays[NONZERO_OPERAND[short]] == 0).any()) or \
            (short.endswith("_shift") and (arrays[1] < 0).any()):
        return None
    result = op.results[0].type
    elements = {v.type.element_type for v in op.operands}
    splat = all(a.ndim == 0 for a in arrays)
    if short in COMPARISONS and splat and len(elements) == 1:  # splat comparisons fold into any result type
        return materialize(op, _stored(fn(*arrays), result.element_type))
    if elements != {result.element_type} or (table is not BINARY and op.operands[0].type != result):
        return None
    if not splat and (math.prod(result.get_shape()) > FOLD_LIMIT or any(a.ndim == 0 for a in arrays) and any(
            a.ndim and tuple(a.shape) != tuple(result.get_shape()) for a in arrays)):
        return None
    if short in ("div", "remainder") and _unsigned(op):
        fn = np.floor_divide if short == "div" else np.mod
    with np.errstate(all="ignore"):
        values = _stored(fn(*arrays), result.element_type)
    if values.ndim and tuple(values.shape) != tuple(result.get_shape()):
        values = np.broadcast_to(values, result.get_shape())
    return materialize(op, values)


def _values(op: Operation, name: str) -> list[int]:

    return int_values(op.prop(name))


# How each TTIR data-movement op rearranges its input's values. A broadcast folds only a splat: a small constant
# and an implicit broadcast are cheaper than the large constant.
LAYOUT_MAPS: dict[str, Callable[[Operation, np.ndarray], np.ndarray]] = {
    "reshape": lambda op, v: v.reshape(op.results[0].type.get_shape()),
    "squeeze": lambda op, v: v.reshape(op.results[0].type.get_shape()),
    "unsqueeze": lambda op, v: v.reshape(op.results[0].type.get_shape()),
    "permute": lambda op, v: np.transpose(v, _values(op, "permutation")),
    "transpose": lambda op, v: np.swapaxes(v, *(_values(op, n)[0] for n in ("dim0", "dim1"))),
    "repeat": lambda op, v: np.tile(v, _values(op, "repeat_dimensions")),
    "repeat_interleave": lambda op, v: np.repeat(v, _values(op, "repeats")[0], axis=_values(op, "dim")[0]),
    "slice_static": lambda op, v: v[tuple(slice(b, e, s) for b, e, s in zip(
        *(_values(op, n) for n in ("begins", "ends", "step"))))],
}


def fold_layout(op: Operation) -> list[Operation] | None:
    """A TTIR data-movement op of a constant: a splat in the result's shape, or (up to the fold limit) the
    rearranged values."""
    result = op.results[0].type
    if not op.name.startswith("ttir.") or result.element_type != op.operands[0].type.element_type:
        return None
    values = constant_array(op.operands[0])
    if values is None or (values.ndim and math.prod(result.get_shape()) > FOLD_LIMIT):
        return None
    if values.ndim:
        if (rearrange := LAYOUT_MAPS.get(op.name.split(".", 1)[1])) is None:
            return None
        values = rearrange(op, values)
        if tuple(values.shape) != tuple(result.get_shape()):
            return None
    return materialize(op, values)


def _in_range(values: np.ndarray, element: Attribute) -> bool:
    if not isinstance(element, IntegerType):
        return True
    info = np.iinfo(_dtype(element)) if element.width.data > 1 else np.iinfo(np.uint8)
    high = 1 if element.width.data == 1 else info.max
    return bool(np.isfinite(values).all() and (values >= info.min).all() and (values <= high).all())


def fold_typecast(op: Operation) -> list[Operation] | None:
    """A typecast of a constant whose every value the target type holds (floats truncated toward zero into
    integers); a value out of range is left for the device to convert."""
    values = constant_array(op.operands[0])
    result = op.results[0].type
    if not op.name.startswith("ttir.") or values is None or _dtype(result.element_type) is None or \
            (values.ndim and math.prod(result.get_shape()) > FOLD_LIMIT):
        return None
    if isinstance(result.element_type, IntegerType) and values.dtype.kind == "f":
        values = np.trunc(values)
    if not _in_range(values, result.element_type):
        return None
    return materialize(op, _stored(values, result.element_type))


def fold_sum(op: Operation) -> list[Operation] | None:
    """The sum of a splat is the splat times the number of elements summed (in the element type)."""
    values = constant_array(op.operands[0])
    result = op.results[0].type
    count = math.prod(op.operands[0].type.get_shape()) // max(math.prod(result.get_shape()), 1)
    if not op.name.startswith("ttir.") or values is None or values.ndim or \
            result.element_type != op.operands[0].type.element_type or not math.prod(result.get_shape()):
        return None
    with np.errstate(all="ignore"):
        return materialize(op, _stored(values * values.dtype.type(count), result.element_type))


def shifted_out(op: Operation) -> list[Operation] | None:
    """A logical shift by at least the width of the element type (a constant amount) is 0."""
    amount = constant_array(op.operands[1])
    width = storage_of(op.operands[0].type.element_type).width.data  # a quantized type shifts its storage integer
    if not op.name.startswith("ttir.") or amount is None or not (amount.astype(np.int64) >= width).all() or \
            (amount.dtype.kind == "i" and (amount < 0).any()):
        return None
    return materialize(op, np.array(0))
