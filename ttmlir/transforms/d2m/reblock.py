"""Reblocking a device tensor: the same elements, in the same physical order, seen on another grid (each shard the
matching slice of the whole). A `d2m.view_layout` with the reblock map moves no data."""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from ttmlir.dialects import d2m


def _ascending_strides(rank: int) -> list[int]:
    """A device shape's dims (grid halves, then shard) from the smallest stride to the largest: the shard's and
    the grid's dim of each physical dim in turn, last physical dim first."""
    half = rank // 2
    return [(i % 2) * half + i // 2 for i in range(rank - 1, -1, -1)]


def reblock_map(source: tuple[int, ...], target: tuple[int, ...]) -> AffineMap:
    """The map from an index of a `target`-shaped device tensor to the same element's index in a `source`-shaped
    one of the same volume: each index's element counted in physical row-major order (as upstream's
    calculateReblockMap counts it)."""
    if source == target:
        return AffineMap.identity(len(target))
    flat, stride = AffineExpr.constant(0), 1
    for i in _ascending_strides(len(target)):
        if target[i] > 1:
            flat = AffineExpr.dimension(i) * stride + flat
            stride *= target[i]
    results: list[AffineExpr] = [AffineExpr.constant(0)] * len(source)
    stride = 1
    for i in _ascending_strides(len(source)):
        expr = AffineExpr.dimension(0) // stride
        results[i] = expr if i == 0 and source[i] != 1 else expr % source[i]
        stride *= source[i]
    return AffineMap(1, 0, tuple(results)).compose(AffineMap(len(target), 0, (flat,)))


def reblocked_type(t: TensorType, grid: tuple[int, ...]) -> TensorType:
    """`t` (a grid then a shard of as many dims) on `grid`: each dim's extent split over the new grid."""
    shape, n = t.get_shape(), len(grid)
    extents = [shape[i] * shape[n + i] for i in range(n)]
    return TensorType(t.element_type, [*grid, *(extent // g for extent, g in zip(extents, grid))], t.encoding)


def reblock_view(value: SSAValue, grid: tuple[int, ...]) -> d2m.ViewLayoutOp:
    """A view of `value` reblocked onto `grid`."""
    target = reblocked_type(value.type, grid)
    remapping = reblock_map(tuple(value.type.get_shape()), tuple(target.get_shape()))
    return d2m.ViewLayoutOp.create(operands=[value], result_types=[target],
                                   properties={"remapping": AffineMapAttr(remapping)})
