"""Virtual grids, as upstream's grid selection chooses and maps them: a tensor much taller than wide (or wider than
tall) whose tiles the device's rectangle of cores divides poorly is computed on a column (row) of shards, one per
core, laid row by row onto a rectangle of cores. The maps are upstream's createCoreVirtMaps: the forward one sends
(grid index..., shard index...) to (core y, core x, shard index...), the inverse one (core y, core x) to
(0, grid index...)."""

from __future__ import annotations

import math

from xdsl.ir.affine import AffineExpr, AffineMap


def legal_cores(volume: int, device: tuple[int, int]) -> tuple[int, int] | None:
    """The rectangle of `volume` cores fitting the device that is nearest a square (upstream's
    findLegalPhysicalGridForVolume), or None."""
    for rows in range(math.isqrt(volume), 0, -1):
        if volume % rows:
            continue
        cols = volume // rows
        if rows <= device[0] and cols <= device[1]:
            return rows, cols
        if cols <= device[0] and rows <= device[1]:
            return cols, rows
    return None


def _sharded_dim(tiles: tuple[int, ...]) -> int:
    """The dim longest relative to the others (0 when none is longer than the rest together)."""
    best, index = 1.0, 0
    for i, size in enumerate(tiles):
        ratio = size / math.prod(t for j, t in enumerate(tiles) if j != i)
        if ratio > best:
            best, index = ratio, i
    return index


def virtual_grid(tiles: tuple[int, int], device: tuple[int, int]) -> tuple[int, int] | None:
    """A column or row of shards along the sharded dim: the most that divide its tiles and fit a rectangle of
    cores; None when that would use a quarter of the device or less."""
    volume = device[0] * device[1]
    index = _sharded_dim(tiles)
    best = next((f for f in range(min(tiles[index], volume), 0, -1)
                 if tiles[index] % f == 0 and legal_cores(f, device) is not None), 0)
    if best * 4 <= volume:
        return None
    return tuple(best if i == index else 1 for i in range(len(tiles)))


def needs_virtual_grid(grid: tuple[int, ...], device: tuple[int, int]) -> bool:
    return len(grid) != 2 or grid[0] > device[0] or grid[1] > device[1]


def _linear(dims: list[AffineExpr], shape: tuple[int, ...]) -> AffineExpr:
    """Row-major linear index of `dims` in `shape`."""
    expr, stride = dims[-1], shape[-1]
    for dim, size in zip(reversed(dims[:-1]), reversed(shape[:-1])):
        expr = expr + dim * stride
        stride *= size
    return expr


def _unlinear(index: AffineExpr, shape: tuple[int, ...]) -> list[AffineExpr]:
    """Index `index` of a row-major walk of `shape`, per dim."""
    out, stride = [], 1
    for size in reversed(shape):
        out.insert(0, AffineExpr.constant(0) if size == 1 else (index // stride if stride > 1 else index) % size)
        stride *= size
    return out


def core_virt_maps(grid: tuple[int, ...], cores: tuple[int, int]) -> tuple[AffineMap, AffineMap]:
    """The forward and inverse maps of `grid` laid row by row onto `cores`."""
    n = len(grid)
    dims = [AffineExpr.dimension(i) for i in range(2 * n)]
    forward = AffineMap(2 * n, 0, (*_unlinear(_linear(dims[:n], grid), cores), *dims[n:]))
    inverse = AffineMap(2, 0, (AffineExpr.constant(0), *_unlinear(_linear(dims[:2], cores), grid)))
    return forward, inverse


def grid_maps_of(forward: AffineMap, inverse: AffineMap, n: int) -> tuple[AffineMap, AffineMap]:
    """A generic grid's own maps from its output's virtual grid maps: the forward map on the grid dims alone, with
    the device first (upstream's getGridMapsFromVirtualGridMapping)."""
    zeros = [AffineExpr.constant(0)] * n
    results = [r.replace_dims_and_symbols([AffineExpr.dimension(i) for i in range(n)] + zeros, [])
               for r in forward.results[:2]]
    return AffineMap(n, 0, (AffineExpr.constant(0), *results)), inverse


def _factors(n: int) -> list[int]:
    return [f for f in range(1, n + 1) if n % f == 0]


def nd_virtual_grid(units: tuple[int, ...], device: tuple[int, int]) -> tuple[int, ...]:
    """The grid of a tensor kept at its rank (upstream's computeOptimalVirtualGrid for shapes that are not 2-d): of
    the grids dividing each dim of `units` (the tensor's dims, its last two in whole tiles), the first of the largest
    volume some rectangle of cores on the device holds, the grids walked with each dim's divisors ascending."""
    limit = device[0] * device[1]
    best, best_volume = (1,) * len(units), 0

    def walk(prefix: tuple[int, ...], volume: int) -> None:
        nonlocal best, best_volume
        if volume > limit:
            return
        if len(prefix) == len(units):
            if volume > best_volume and legal_cores(volume, device) is not None:
                best, best_volume = prefix, volume
            return
        for f in _factors(units[len(prefix)]):
            walk((*prefix, f), volume * f)

    walk((), 1)
    return best
