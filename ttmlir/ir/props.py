"""Property kinds used by the op table: how each is checked, described and built from a default."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Callable

from xdsl.dialects.builtin import (ArrayAttr, BFloat16Type, DenseArrayBase, DenseIntOrFPElementsAttr, DenseResourceAttr,
                                   Float16Type, Float32Type, Float64Type, FloatAttr, IntegerAttr, IntegerType, Signedness, StringAttr,
                                   SymbolRefAttr, TypeAttribute)
from xdsl.ir import Attribute

from ttmlir.dialects import ttcore
from ttmlir.dialects.ttir_attrs import FlattenedCompatInfoAttr, SparseElementsAttr

FLOAT_TYPES = (BFloat16Type, Float16Type, Float32Type, Float64Type)


@dataclass(frozen=True)
class Kind:
    check: Callable[[Attribute], bool]
    describe: str  # MLIR's constraint description, used in "failed to satisfy constraint: ..."
    build: Callable[[Any], Attribute]


def _int_type(width: int, sign: Signedness = Signedness.SIGNLESS) -> IntegerType:
    return IntegerType(width, sign)


def _is_int(width: int, sign: Signedness = Signedness.SIGNLESS) -> Callable[[Attribute], bool]:
    t = _int_type(width, sign)
    return lambda a: isinstance(a, IntegerAttr) and a.type == t


def _is_dense(width: int) -> Callable[[Attribute], bool]:
    t = _int_type(width)
    return lambda a: isinstance(a, DenseArrayBase) and a.elt_type == t


def _is_i32_array(a: Attribute) -> bool:
    i32 = _int_type(32)
    return isinstance(a, ArrayAttr) and all(isinstance(e, IntegerAttr) and e.type == i32 for e in a.data)


def _int_or_dense(sign: Signedness = Signedness.SIGNLESS) -> Callable[[Attribute], bool]:
    """One i32 (of the given signedness) or an i32 dense array."""
    is_i32, is_dense = _is_int(32, sign), _is_dense(32)
    return lambda a: is_i32(a) or is_dense(a)


def _enum(cls) -> Kind:
    return Kind(lambda a: isinstance(a, cls), f"{cls.name} attribute", lambda v: cls(cls.enum_type(v)))


def _build_int(width, sign=Signedness.SIGNLESS):
    return lambda v: IntegerAttr(int(v), _int_type(width, sign))


def _bool(v) -> IntegerAttr:
    return IntegerAttr(int(v in (True, "true", 1)), 1)


KINDS: dict[str, Kind] = {
    "bool": Kind(_is_int(1), "bool attribute", _bool),
    "i32": Kind(_is_int(32), "32-bit signless integer attribute", _build_int(32)),
    "si8": Kind(_is_int(8, Signedness.SIGNED), "8-bit signed integer attribute", _build_int(8, Signedness.SIGNED)),
    "si32": Kind(_is_int(32, Signedness.SIGNED), "32-bit signed integer attribute",
                 _build_int(32, Signedness.SIGNED)),
    "ui32": Kind(_is_int(32, Signedness.UNSIGNED), "32-bit unsigned integer attribute",
                 _build_int(32, Signedness.UNSIGNED)),
    "i64": Kind(_is_int(64), "64-bit signless integer attribute", _build_int(64)),
    "si64": Kind(_is_int(64, Signedness.SIGNED), "64-bit signed integer attribute",
                 _build_int(64, Signedness.SIGNED)),
    "f32": Kind(lambda a: isinstance(a, FloatAttr) and isinstance(a.type, Float32Type),
                "32-bit float attribute", lambda v: FloatAttr(float(v), Float32Type())),
    "i32_array": Kind(_is_i32_array, "32-bit integer array attribute",
                      lambda v: ArrayAttr([IntegerAttr(int(x), 32) for x in v])),
    "i32_darray": Kind(_is_dense(32), "i32 dense array attribute",
                       lambda v: DenseArrayBase.from_list(_int_type(32), [int(x) for x in v])),
    "i64_darray": Kind(_is_dense(64), "i64 dense array attribute",
                       lambda v: DenseArrayBase.from_list(_int_type(64), [int(x) for x in v])),
    # a scalar or an array whose length the op's verifier checks, in upstream's words
    "i32_or_darray": Kind(_int_or_dense(), "32-bit signless integer attribute or i32 dense array attribute",
                          lambda v: IntegerAttr(v, 32) if isinstance(v, int)
                          else DenseArrayBase.from_list(_int_type(32), list(v))),
    "si32_or_darray": Kind(_int_or_dense(Signedness.SIGNED),
                           "32-bit signed integer attribute or i32 dense array attribute",
                           lambda v: IntegerAttr(v, _int_type(32, Signedness.SIGNED)) if isinstance(v, int)
                           else DenseArrayBase.from_list(_int_type(32), list(v))),
    "f32_or_i32": Kind(lambda a: KINDS["f32"].check(a) or KINDS["i32"].check(a),
                       "32-bit float attribute or 32-bit signless integer attribute",
                       lambda v: IntegerAttr(v, 32) if isinstance(v, int) else FloatAttr(float(v), Float32Type())),
    "number": Kind(lambda a: isinstance(a, (IntegerAttr, FloatAttr)), "integer or float attribute",
                   lambda v: FloatAttr(float(v), Float32Type()) if isinstance(v, float) else IntegerAttr(v, 32)),
    "str": Kind(lambda a: isinstance(a, StringAttr), "string attribute", StringAttr),
    "symbol": Kind(lambda a: isinstance(a, SymbolRefAttr) and not a.nested_references.data,
                   "flat symbol reference attribute", SymbolRefAttr),
    "type": Kind(lambda a: isinstance(a, TypeAttribute), "any type attribute", lambda v: v),
    # any elements attribute (a constant's verifier says which it takes)
    "elements": Kind(lambda a: isinstance(a, (DenseIntOrFPElementsAttr, DenseResourceAttr, SparseElementsAttr)),
                     "constant vector/tensor attribute", lambda v: v),
    "pairs": Kind(lambda a: isinstance(a, DenseIntOrFPElementsAttr) and isinstance(a.type.element_type, IntegerType),
                  "integer elements attribute of (source, target) pairs", lambda v: v),
    "shard_type": _enum(ttcore.ShardTypeAttr),
    "shard_direction": _enum(ttcore.ShardDirectionAttr),
    "reduce_type": _enum(ttcore.ReduceTypeAttr),
    "topology": _enum(ttcore.TopologyAttr),
    "mask_type": _enum(ttcore.AttentionMaskTypeAttr),
    "moe_activation": _enum(ttcore.MoEActivationFunctionAttr),
    "flattened_compat": Kind(lambda a: isinstance(a, FlattenedCompatInfoAttr), "ttir.flattened_compat attribute",
                             lambda v: FlattenedCompatInfoAttr(tuple(v))),
}


@functools.cache  # attributes are immutable: each default is built once
def default_attr(kind: str, text: str) -> Attribute:
    return KINDS[kind].build(text)


def int_values(attr: Attribute) -> list[int]:
    """The integers of an i32 array, a dense array or a single integer attribute."""
    if isinstance(attr, ArrayAttr):
        return [e.value.data for e in attr.data]
    if isinstance(attr, DenseArrayBase):
        return list(attr.get_values())
    return [attr.value.data]


def dense_values(attr: DenseIntOrFPElementsAttr) -> list:
    """Every element of a dense attribute; a splat (parsed as one element) repeated to its shape's size."""
    values, count = list(attr.get_values()), math.prod(attr.type.get_shape())
    return values * count if len(values) == 1 else values


def dense_array(attr: DenseIntOrFPElementsAttr):
    """A dense attribute's elements as a flat numpy array decoded from its bytes at once (as `get_values` reads them,
    element by element in Python; bf16 widened to f32)."""
    import numpy as np

    element, raw = attr.type.element_type, attr.data.data
    if isinstance(element, BFloat16Type):
        return (np.frombuffer(raw, "<u2").astype(np.uint32) << 16).view(np.float32)
    return np.frombuffer(raw, np.dtype(element.format))


def scalar(attr: Attribute):
    """The Python value of a bool/int/float/string attribute."""
    if isinstance(attr, IntegerAttr):
        return bool(attr.value.data) if attr.type == _int_type(1) else attr.value.data
    if isinstance(attr, FloatAttr):
        return attr.value.data
    if isinstance(attr, StringAttr):
        return attr.data
    return attr


# Where a conv3d's N, D, H, W and C are (its dimension properties).
CONV3D_DIMS = ("batch_dim", "depth_dim", "height_dim", "width_dim", "channel_dim")


def int_triple(op, name: str) -> list[int]:
    """One integer for all three dimensions or an array of three (upstream's getTripleOfInteger)."""
    attr = op.prop(name)
    values = int_values(attr)
    if isinstance(attr, DenseArrayBase) and len(values) != 3:
        raise op.error(f"Expected integer or array of size 3, but got array of size {len(values)} for {name}")
    return values * 3 if len(values) == 1 else values


def conv3d_dims(op) -> list[int]:
    """Where N, D, H, W and C are: NDHWC is [0, 1, 2, 3, 4]."""
    return [scalar(op.prop(name)) for name in CONV3D_DIMS]
