"""Bounds on sizes read from IR text, checked before anything is sized from them: MLIR's limit on integer widths,
and shaped types whose byte size a 64-bit size cannot hold."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import IntegerType, ShapedType
from xdsl.ir import Attribute

from ttmlir import hardware

MAX_INT_WIDTH = (1 << 24) - 1  # MLIR's IntegerType::kMaxWidth
INT64_MAX = (1 << 63) - 1  # MLIR's dimensions (and every size computed from them) are int64_t


def int_width_error(width: int) -> str | None:
    """MLIR's parser refuses a width an `unsigned` cannot hold, then one past kMaxWidth."""
    if width >= 1 << 32:
        return "invalid integer width"
    if width > MAX_INT_WIDTH:
        return f"integer bitwidth is limited to {MAX_INT_WIDTH} bits"
    return None


def type_error(type: Attribute) -> str | None:
    """Why a value's type cannot exist (a too wide integer, a too large shape), for verifiers of IR not read from
    text (the parser refuses these where they are written)."""
    element = type.get_element_type() if isinstance(type, ShapedType) else type
    if isinstance(element, IntegerType) and (error := int_width_error(element.width.data)) is not None:
        return f"{error}: {element}"
    return shaped_size_error(type)


def element_bytes(element: Attribute) -> int:
    """Bytes of one element, at least 1: what a buffer of the type would be sized by."""
    from ttmlir.dialects.ttcore import TileType

    if isinstance(element, TileType):
        return hardware.tile_bytes(element.dtype, element.dims)
    if isinstance(element, IntegerType):
        return max(1, (element.width.data + 7) // 8)
    return max(1, getattr(element, "compile_time_size", 1))


def shaped_size_error(type: Attribute) -> str | None:
    """Why a ranked shaped type is too large to exist, or None: its element count or byte size past int64."""
    if not isinstance(type, ShapedType):
        return None
    shape = type.get_shape()
    if any(d < 0 for d in shape):  # dynamic dimensions: no size yet
        return None
    count = math.prod(shape)
    size = element_bytes(type.get_element_type()) if count else 0
    if count * size > INT64_MAX:
        return (f"{type} is too large: {count} elements of {size} bytes each do not fit a 64-bit size")
    return None


FLATBUFFER_BYTES = (1 << 31) - 1  # a flatbuffer's offsets are 32-bit: no binary holds more


def elements_error(type: Attribute) -> str | None:
    """Why the elements of a constant of `type` cannot be written out one by one (into a binary, or expanded from a
    splat), or None; checked before they are."""
    if not isinstance(type, ShapedType):
        return None
    count = math.prod(type.get_shape())
    size = count * element_bytes(type.get_element_type())
    if size > FLATBUFFER_BYTES:
        return f"a constant {type} of {size} bytes is larger than a flatbuffer binary holds ({FLATBUFFER_BYTES} bytes)"
    return None


def row_major_strides(shape) -> list[int]:
    """Each dim's stride, in elements, in a dense row-major buffer of `shape`."""
    return [math.prod(shape[i + 1:]) for i in range(len(shape))]
