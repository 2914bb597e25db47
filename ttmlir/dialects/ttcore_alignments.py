"""The dim alignments of a `#ttcore.metal_layout` (upstream's MetalLayoutAttr::computeTileAlignments,
computeGridAwareDimAlignments and GridSelectionUtils' computeSelectedGridDimAlignments): how far each logical dim's
collapsed group is padded so that the physical shape is whole tiles and, when it is larger than a tile per core of
the device grid, splits evenly over that grid (padding at the end of the tensor's buffer rather than leaving cores
idle). An alignment on a group's leading dim pads the group's collapsed size (the product), not the dim alone.

`intervals` are the layout's collapsed intervals as [start, end) pairs over the logical dims (`collapsed_intervals`);
the last two are the physical rows and columns, tiled."""

from __future__ import annotations

import math

from ttmlir.dialects import ttcore

TILE = (32, 32)


def _align_up(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def collapsed_intervals(layout: ttcore.MetalLayout) -> list[tuple[int, int]]:
    """The layout's collapsed intervals as [start, end) pairs over its logical dims (negative from the end), each
    dim no interval names an interval of its own."""
    rank = len(layout.logical_shape)
    values = list(layout.collapsed_intervals.get_values())
    named = [(a % rank if a < 0 else a, b + rank + 1 if b < 0 else b) for a, b in zip(values[::2], values[1::2])]
    covered = {d for a, b in named for d in range(a, b)}
    return sorted(named + [(d, d + 1) for d in range(rank) if d not in covered])


def collapsed_size(logical: tuple[int, ...], alignments: tuple[int, ...], start: int, end: int) -> int:
    """The padded size of the group [start, end): innermost dim first, each step's running product aligned."""
    size = _align_up(logical[end - 1], alignments[end - 1])
    for dim in range(end - 2, start - 1, -1):
        size = _align_up(logical[dim] * size, alignments[dim])
    return size


def physical_shape(logical: tuple[int, ...], alignments: tuple[int, ...],
                   intervals: list[tuple[int, int]]) -> tuple[int, ...]:
    """The collapsed, padded shape a layout gives its tensor (elements, one dim per group)."""
    return tuple(collapsed_size(logical, alignments, start, end) for start, end in intervals)


def compute_tile_alignments(logical: tuple[int, ...], intervals: list[tuple[int, int]]) -> tuple[int, ...]:
    """Tile alignment alone: the innermost dim of each of the last two groups aligned to the tile's side."""
    alignments = [1] * len(logical)
    if len(logical) == 1:
        alignments[0] = TILE[1]
    elif logical:
        for side, (_, end) in zip(TILE, intervals[-2:]):
            alignments[end - 1] = side
    return tuple(alignments)


def compute_grid_aware_dim_alignments(logical: tuple[int, ...], device_grid: tuple[int, int],
                                      intervals: list[tuple[int, int]]) -> tuple[int, ...]:
    """The alignments that saturate `device_grid`: each of the last two groups larger than a tile per core of the
    grid's matching dim is aligned to that many tiles (the group's leading dim when it collapses several dims, its
    innermost one keeping the tile alignment), any other to a tile."""
    alignments = [1] * len(logical)
    if not logical:
        return ()
    if len(logical) == 1:
        threshold = device_grid[1] * TILE[1]
        alignments[0] = threshold if _align_up(logical[0], TILE[1]) > threshold else TILE[1]
        return tuple(alignments)
    for side, cores, (start, end) in zip(TILE, device_grid, intervals[-2:]):
        threshold = cores * side
        size = 1
        for dim in range(start, end):  # the last two logical dims in whole tiles
            size *= _align_up(logical[dim], side) if dim >= len(logical) - 2 else logical[dim]
        to_grid = size > threshold
        if end - start == 1:
            alignments[start] = threshold if to_grid else side
        else:
            alignments[end - 1] = side
            if to_grid:
                alignments[start] = threshold
    return tuple(alignments)


def compute_selected_grid_dim_alignments(logical: tuple[int, ...], intervals: list[tuple[int, int]],
                                         grid: tuple[int, ...]) -> tuple[int, ...]:
    """The alignments of a tensor placed on `grid` (one dim per group): tile alignment, and along each group
    split over more than one core, the grid-aware alignment for that many cores, raised until the group's size
    divides into whole tiles per core."""
    alignments = list(compute_tile_alignments(logical, intervals))
    rank = len(intervals)
    for index, ((start, end), cores) in enumerate(zip(intervals, grid)):
        if cores <= 1:
            continue
        side = TILE[index - (rank - 2)] if index >= rank - 2 else 1
        dim = end - 1 if end - start == 1 else start
        threshold = cores * side
        if collapsed_size(logical, tuple(alignments), start, end) > threshold:
            alignments[dim] = math.lcm(alignments[dim], threshold)
        base = alignments[dim]
        while collapsed_size(logical, tuple(alignments), start, end) % threshold:
            alignments[dim] += base
    return tuple(alignments)
