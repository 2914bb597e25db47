"""`--replicate-non-splittable-values`: values whose per-chip piece is not the op run on a smaller shape stay
replicated.

Making a body per-chip shrinks every op's shape, which is right when each chip's piece is what the op computes on
the smaller shape. It is wrong for
- an iota split along its iota dimension (chip 1's piece counts from the split point, not from 0),
- a constant whose pieces differ (a split dimension that does not repeat with the piece's period),
- a slice of a split dimension unless it takes the dimension whole, or strides over all of it from an offset
  below the stride with a stride that divides the piece.
Their results get a replicated sharding; `--sdy-insert-explicit-reshards` then moves data where a split user
needs it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from ttmlir.dialects import sdy
from ttmlir.transforms.shardy.rules import _ints, _prop

SHARDING = "sdy.sharding"


def _pieces(op: Operation, sharding: sdy.Sharding) -> list[int]:
    mesh = sdy.mesh_of(op, sharding)
    return [math.prod(mesh.size(a) for a in d.axes) if mesh else 1 for d in sharding.dims]


def _periodic(value: DenseIntOrFPElementsAttr, pieces: list[int]) -> bool:
    """Whether every piece of the constant (split `pieces[d]` ways along each dim d) holds the same values."""
    shape = list(value.type.get_shape())
    values = list(value.get_values())
    if len(values) == 1:  # a splat
        return True
    strides = [math.prod(shape[d + 1:]) for d in range(len(shape))]
    for d, n in enumerate(pieces):
        if n <= 1:
            continue
        step = shape[d] // n
        for flat, v in enumerate(values):
            index = (flat // strides[d]) % shape[d]
            if index >= step and values[flat - (index - index % step) * strides[d]] != v:
                return False
    return True


def _splittable_slice(op: Operation, pieces: list[int]) -> bool:
    shape = op.operands[0].type.get_shape()
    starts, limits = _ints(_prop(op, "start_indices")), _ints(_prop(op, "limit_indices"))
    strides = _ints(_prop(op, "strides")) or (1,) * len(shape)
    for d, n in enumerate(pieces):
        if n <= 1 or (starts[d], limits[d], strides[d]) == (0, shape[d], 1):
            continue
        if not (starts[d] < strides[d] and limits[d] == shape[d] and (shape[d] // n) % strides[d] == 0):
            return False
    return True


def splittable(op: Operation, sharding: sdy.Sharding) -> bool:
    pieces = _pieces(op, sharding)
    if math.prod(pieces) == 1:
        return True
    if op.name == "stablehlo.iota":
        return pieces[_ints(_prop(op, "iota_dimension"))[0]] == 1
    if op.name in ("stablehlo.constant", "sdy.constant"):
        value = _prop(op, "value")
        return not isinstance(value, DenseIntOrFPElementsAttr) or _periodic(value, pieces)
    if op.name == "stablehlo.slice":
        return _splittable_slice(op, pieces)
    return True


@dataclass(frozen=True)
class ReplicateNonSplittableValuesPass(ModulePass):
    """Change the sharding of non-splittable values to replicated."""

    name = "replicate-non-splittable-values"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            attr = inner.attributes.get(SHARDING)
            if not isinstance(attr, sdy.ShardingPerValueAttr) or len(attr.data) != 1:
                continue
            (sharding,) = attr.data
            if not isinstance(inner.results[0].type, TensorType) or splittable(inner, sharding):
                continue
            inner.attributes[SHARDING] = sdy.ShardingPerValueAttr((sdy.replicated_sharding(sharding.mesh,
                                                                                           len(sharding.dims)),))
