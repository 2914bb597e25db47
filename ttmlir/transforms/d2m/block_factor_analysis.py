"""The block factors `--d2m-reblock-generics` gives a `d2m.generic`, by policy (upstream's BlockFactorAnalysis):
`max` keeps them (each operand's whole shard a block), `min` multiplies each dim the output does not use (a
reduction) by its shard extent (one tile of K a step), and `auto` (also `bounded`, `auto-mn`) searches the divisors
of the shard extents of the dims it may reblock: for a generic with one reduction dim, that dim (`auto-mn`: also
the dims of M and N), preferring the fewest bytes of stream buffers; for an all-parallel one (elementwise, or a
tilize/untilize), the dims the output uses, preferring the most blocks. A candidate is legal when every operand
it reblocks splits evenly onto its new grid and keeps shards of at least 4 elements (fused intermediates, known
by their `d2m.blocking_map`, alike)."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap

from ttmlir import hardware
from ttmlir.dialects import d2m, ttcore

POLICIES = ("auto", "bounded", "auto-mn", "min", "max")
BEAM_WIDTH, SCALES_PER_DIM = 64, 5  # the bounded search: candidates kept per dim, divisors tried per dim


def maps_of(generic: d2m.GenericOp) -> list[AffineMap]:
    return [m.data for m in generic.attributes["indexing_maps"].data]


def block_factors(generic: d2m.GenericOp) -> list[int]:
    return [f.value.data for f in generic.attributes["block_factors"].data]


def _iterators(generic: d2m.GenericOp) -> list[str]:
    return [str(t.data.value if hasattr(t.data, "value") else t.data) for t in
            generic.attributes["iterator_types"].data]


def grid_and_shard(t: Attribute) -> tuple[list[int], list[int]]:
    shape = list(t.get_shape())
    return shape[:len(shape) // 2], shape[len(shape) // 2:]


def _first_of_each_dim(maps: list[AffineMap], values: list[list[int]]) -> list[int]:
    """Per loop dim, the value of the first operand dim (in operand order) its maps read as that loop dim alone
    (upstream's inverse permutation of the concatenated maps composed with the concatenated shapes)."""
    rank = maps[0].num_dims
    found: list[int | None] = [None] * rank
    for amap, shape in zip(maps, values):
        for expr, size in zip(amap.results, shape):
            if isinstance(expr, AffineDimExpr) and found[expr.position] is None:
                found[expr.position] = size
    return [1 if f is None else f for f in found]


def extents(generic: d2m.GenericOp) -> tuple[list[int], list[int]]:
    """The loop dims' grid and shard extents, read off the operands through the indexing maps."""
    maps, operands = maps_of(generic), [*generic.inputs, *generic.outputs]
    shapes = [grid_and_shard(v.type) for v in operands]
    return (_first_of_each_dim(maps, [g for g, _ in shapes]), _first_of_each_dim(maps, [s for _, s in shapes]))


def participating(generic: d2m.GenericOp) -> list[bool]:
    """Per loop dim, whether the output's indexing map uses it."""
    out = maps_of(generic)[-1]
    used = {e.position for r in out.results for e in _dims(r)}
    return [d in used for d in range(out.num_dims)]


def _dims(expr: AffineExpr) -> list[AffineDimExpr]:
    if isinstance(expr, AffineDimExpr):
        return [expr]
    return [d for child in (getattr(expr, "lhs", None), getattr(expr, "rhs", None)) if child is not None
            for d in _dims(child)]


def _broadcasts_as_one(amap: AffineMap) -> AffineMap:
    """`amap` with each result that is the constant 0 (a broadcast) the constant 1."""
    return AffineMap(amap.num_dims, amap.num_symbols, tuple(
        AffineExpr.constant(1) if isinstance(r, AffineConstantExpr) and r.value == 0 else r for r in amap.results))


def through(amap: AffineMap, values: list[int]) -> list[int]:
    """`values` (one per loop dim) read through `amap`, a broadcast dim as 1."""
    return list(_broadcasts_as_one(amap).eval(values, []))


def reblocked_grid(generic: d2m.GenericOp, index: int, factors: list[int]) -> list[int]:
    """Operand `index`'s grid under block factors `factors` on the generic's grid (upstream's
    computeReblockedOperandGridShape): the output's grid extents times the factors, through the operand's map."""
    maps = maps_of(generic)
    out_grid = list(generic.attributes["grid"].data.shape)
    totals = [0] * len(factors)
    for position, expr in enumerate(maps[-1].results):
        if isinstance(expr, AffineDimExpr) and position < len(out_grid):
            totals[expr.position] = out_grid[position]
    totals = [f if t == 0 else t * f for t, f in zip(totals, factors)]
    return [v if v else 1 for v in maps[index].eval(totals, [])]


def _bytes(shard: list[int], element: Attribute, buffers: int) -> int:
    unit = hardware.tile_bytes(element.data_type.data.value) if isinstance(element, ttcore.TileType) else \
        max(1, element.bitwidth // 8)
    return math.prod(shard) * unit * buffers


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


@dataclass
class _Candidate:
    scales: list[int]
    factors: list[int]
    volume: int
    cb_bytes: int


def _evaluate(generic: d2m.GenericOp, dims: list[int], scales: list[int], buffers: int,
              identity: bool = False) -> _Candidate | None:
    """A candidate's legality and stream-buffer bytes (None: illegal)."""
    grid, shard = extents(generic)
    factors = block_factors(generic)
    grid = [g * s for g, s in zip(grid, scales)]
    shard = [v // s for v, s in zip(shard, scales)]
    new = [f * s for f, s in zip(factors, scales)]
    scaled = {d for d, s in enumerate(scales) if s > 1} or (set(dims) if identity else set())
    if not scaled:
        return None
    maps, operands = maps_of(generic), [*generic.inputs, *generic.outputs]
    seen, total = False, 0
    for amap, operand in zip(maps, operands):
        if not {e.position for r in amap.results for e in _dims(r)} & scaled:
            continue
        seen = True
        old_grid, old_shard = grid_and_shard(operand.type)
        operand_grid, operand_shard = through(amap, grid), through(amap, shard)
        if any(g <= 0 or (og * os) % g for g, og, os in zip(operand_grid, old_grid, old_shard)):
            return None
        if math.prod(operand_shard) < 4:
            return None
        total += _bytes(operand_shard, operand.type.element_type, buffers)
    for alloc in [o for o in generic.walk() if o.name == "memref.alloc" and "d2m.blocking_map" in o.attributes]:
        amap = alloc.attributes["d2m.blocking_map"].data
        if not {e.position for r in amap.results for e in _dims(r)} & scaled:
            continue
        seen = True
        inner = through(amap, shard)
        if math.prod(inner) < 4:
            return None
        total += _bytes(inner, alloc.results[0].type.element_type, buffers)
    if not seen:
        return None
    return _Candidate(scales, new, math.prod(scales), total)


def _better(kind: str, a: _Candidate, b: _Candidate) -> bool:
    """Whether `a` beats `b`: a reduction's by fewer buffer bytes, then more blocks; an all-parallel one's by more
    blocks, then fewer bytes; then the lexicographically larger scales."""
    keys = (-a.cb_bytes, a.volume) if kind == "reduction" else (a.volume, -a.cb_bytes)
    other = (-b.cb_bytes, b.volume) if kind == "reduction" else (b.volume, -b.cb_bytes)
    return (keys, a.scales) > (other, b.scales)


def _is_layout_conversion(generic: d2m.GenericOp) -> bool:
    """A tilize or untilize: one input, one output, one of them of tiles, the region tilizing or untilizing."""
    if len(generic.inputs) != 1 or len(generic.outputs) != 1:
        return False
    tiled = isinstance(generic.inputs[0].type.element_type, ttcore.TileType)
    if tiled == isinstance(generic.outputs[0].type.element_type, ttcore.TileType):
        return False
    wanted = "d2m.tile_untilize_block" if tiled else "d2m.tile_tilize_block"
    return any(op.name == wanted for op in generic.walk())


def _search(generic: d2m.GenericOp, policy: str, buffers: int) -> list[int]:
    """The `auto`/`bounded`/`auto-mn` choice (see the module doc): the generic's factors when none applies."""
    factors = block_factors(generic)
    operands = [*generic.inputs, *generic.outputs]
    if len(generic.outputs) != 1 or _explicit(generic):
        return factors
    _, shard_factors = extents(generic)  # per loop dim, the blocks its shard could be cut into
    tiles = [isinstance(v.type.element_type, ttcore.TileType) for v in operands]
    mixed = any(tiles) and not all(tiles)
    reductions = [d for d, t in enumerate(_iterators(generic)) if t == "reduction"]
    uses = participating(generic)
    if not reductions:
        if mixed and not _is_layout_conversion(generic):
            return factors
        kind, dims = "parallel", [d for d in range(len(factors)) if uses[d] and shard_factors[d] > 1]
    elif len(reductions) == 1 and not mixed:
        kind = "reduction"
        if policy == "auto-mn":  # a dim some operands (not all: not a batch dim) read, reblocked like K
            maps = maps_of(generic)
            dims = [d for d in range(len(factors)) if shard_factors[d] > 1 and
                    0 < sum(any(d in {e.position for e in _dims(r)} for r in m.results) for m in maps) < len(maps)]
        else:
            dims = reductions
    else:
        return factors
    if not dims:
        return factors
    if kind == "parallel":
        legal = [_moderate_divisors(shard_factors[d]) for d in dims]
    else:
        legal = [_divisors(shard_factors[d]) for d in dims]
    best = _evaluate(generic, dims, [1] * len(factors), buffers, identity=True) if kind == "reduction" else None
    choices: list[list[int]]
    if policy == "bounded" and kind == "parallel" and math.prod(map(len, legal)) > BEAM_WIDTH:
        beam = [([1] * len(factors), 1, 0)]
        for dim, scales in zip(dims, legal):
            grown = []
            for base, volume, penalty in beam:
                for rank, scale in enumerate(scales):
                    grown.append((base[:dim] + [scale] + base[dim + 1:], volume * scale, penalty + rank))
            grown.sort(key=lambda c: (c[2], -c[1], [-s for s in c[0]]))
            beam = grown[:BEAM_WIDTH]
        choices = [c[0] for c in beam]
    else:
        choices = []
        for picked in itertools.product(*legal):
            scales = [1] * len(factors)
            for d, s in zip(dims, picked):
                scales[d] = s
            choices.append(scales)
    for scales in choices:
        candidate = _evaluate(generic, dims, scales, buffers)
        if candidate is not None and (best is None or _better(kind, candidate, best)):
            best = candidate
    return best.factors if best is not None else factors


def _moderate_divisors(n: int) -> list[int]:
    """The divisors of `n` an all-parallel search tries: the middle ones first, at most SCALES_PER_DIM, 1 always
    among them."""
    divisors = _divisors(n)
    middle = (len(divisors) - 1) // 2
    ranked = sorted(divisors, key=lambda d: (abs(divisors.index(d) - middle), d == 1, -d))
    chosen = ranked[:SCALES_PER_DIM]
    if 1 not in chosen:
        chosen[-1] = 1
    return chosen


def _explicit(generic: d2m.GenericOp) -> bool:
    """A generic in explicit data-movement form: no indexing maps, its regions moving data themselves."""
    return not generic.attributes["indexing_maps"].data


def reblocked_factors(generic: d2m.GenericOp, policy: str, buffers: int) -> list[int]:
    """The block factors `policy` chooses for `generic`."""
    factors = block_factors(generic)
    if policy == "max" or _explicit(generic):
        return factors
    if policy == "min":
        _, shard = extents(generic)
        return [f * (1 if used else s) for f, used, s in zip(factors, participating(generic), shard)]
    return _search(generic, policy, buffers)


def associated_operand(value: SSAValue) -> SSAValue | None:
    """The generic operand a region buffer is the local block of (a remote load's or store's local buffer)."""
    for use in value.uses:
        op = use.operation
        if isinstance(op, d2m.RemoteLoadOp) and op.local is value:
            return op.source
        if isinstance(op, d2m.RemoteStoreOp) and op.local is value:
            return op.dest
    return None
