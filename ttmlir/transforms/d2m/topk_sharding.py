"""How a topk is split across cores (upstream's TopKShardingStrategy, as far as this build goes): the chain
`--ttir-to-d2m` writes around a topk's leaf generic, the L1 one core's share of it costs, and the plan
`--d2m-grid-selection` puts on the leaf (`d2m.topk_plan`) for `--d2m-build-topk-chain`.

The chain is the leaf (the generic of a `d2m.topk_block` generating its indices), the generics writing its input
(a negation for smallest-k, the pre-transpose), and those reading its results (through the extract's narrowing
views: the extracts, the indices' cast, the values' negation back). The budget follows upstream's: each
shard-sized operand of the leaf costs its tile size times the CB buffering factor per tile a core holds, the
one-tile scratch is paid twice, and a merge core pays the leaf's output tiles per partial tile it gathers.

One core holds the whole topk when its reduction (at least two tiles) times its non-target tiles fit. Else, as
upstream prefers, the reduction is banded: the fewest bands (powers of two first) dividing its tiles, each of at
least two tiles and on a core of a row (dim 1) or column (dim 0) of the grid, with a merge tree that closes (each
round the fewest groups whose cores can gather their bands' ceil(k/32)-tile partials beside the leaf's shard).
Else the non-target dim is sliced across a column (dim 1) or row (dim 0) of cores, each reducing its slice's rows
whole, as many slices as divide the tiles and fit the grid. Splits that need padding (counts that do not divide
the tiles) and splits of both dims are not built yet: a topk no split fits is refused, naming the budget."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, DenseIntOrFPElementsAttr, IntAttr, TensorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr

from ttmlir import hardware
from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_topk import TopkBlockOp
from ttmlir.dialects.d2m_topk_plan import PLAN_ATTR, TopKPlacementAttr, TopKPlanAttr
from ttmlir.errors import PassFailure

NUM_BUFFERS = 2  # the CB buffering factor generics are allocated with
TILE = 32


def topk_block_of(generic: d2m.GenericOp) -> TopkBlockOp | None:
    if not generic.regions:
        return None
    return next((o for o in generic.regions[0].walk() if isinstance(o, TopkBlockOp)), None)


def leaves(module: Operation) -> list[d2m.GenericOp]:
    """The leaf generics of the module's topks: a `d2m.topk_block` generating its indices, two inputs, two results."""
    found = []
    for generic in module.walk():
        if isinstance(generic, d2m.GenericOp) and (block := topk_block_of(generic)) is not None and \
                block.generate_indices is not None and block.generate_indices.value.data and \
                len(generic.inputs) == 2 and len(generic.results) == 2:
            found.append(generic)
    return found


def _writer(value: SSAValue) -> d2m.GenericOp | None:
    """The unary generic writing `value` (through a mask), if any."""
    owner = value.owner
    if isinstance(owner, d2m.MaskOp):
        owner = owner.input.owner
    return owner if isinstance(owner, d2m.GenericOp) and len(owner.inputs) == 1 else None


def _readers(value: SSAValue) -> list[d2m.GenericOp]:
    """The generics reading `value`, directly or through a view."""
    found = []
    for use in value.uses:
        user = use.operation
        if isinstance(user, d2m.ViewLayoutOp):
            found += _readers(user.result)
        elif isinstance(user, d2m.GenericOp) and use.index < len(user.inputs):
            found.append(user)
    return found


def chain_of(leaf: d2m.GenericOp) -> tuple[list[d2m.GenericOp], list[d2m.GenericOp]]:
    """(the generics writing the leaf's input, first first; those reading its results, each after what it reads)."""
    before = []
    generic = _writer(leaf.inputs[0])
    while generic is not None:
        before.insert(0, generic)
        generic = _writer(generic.inputs[0])
    after, frontier = [], list(leaf.results)
    while frontier:
        readers = _readers(frontier.pop(0))
        after += readers
        frontier += [r for g in readers for r in g.results]
    return before, after


def _shard_tiles(value: SSAValue) -> int:
    shape = value.type.get_shape()
    count = 1
    for n in shape[len(shape) // 2:]:
        count *= n
    return count


@dataclass(frozen=True)
class Budget:
    """What one topk costs in a core's L1 (upstream's TopKL1Budget): the bytes it may use, per reduction tile a
    leaf core holds (its shard-sized operands), per partial tile a merge core gathers (values and indices), and
    the fixed bytes of the one-tile scratch (paid by the leaf and a rebuild's)."""

    usable: int
    per_leaf_tile: int
    per_merge_tile: int
    fixed: int

    @property
    def max_tiles(self) -> int:
        return max((self.usable - self.fixed) // self.per_leaf_tile, 1)

    def merge_cap(self, leaf_tiles: int, partial_tiles: int) -> int:
        """Bands one merge core may gather, each `partial_tiles` tiles, beside a leaf shard of `leaf_tiles`."""
        return (self.usable - self.fixed - leaf_tiles * self.per_leaf_tile) // (self.per_merge_tile * partial_tiles)


def budget_of(leaf: d2m.GenericOp, chip: dict) -> Budget:
    maps = [m.data for m in leaf.attributes["indexing_maps"].data]
    per_leaf = fixed = 0
    for value, amap in zip(leaf.operands, maps):
        cost = _tile_cost(value)
        if all(isinstance(r, AffineConstantExpr) for r in amap.results):
            fixed += 2 * cost * _shard_tiles(value)
        else:
            per_leaf += cost
    return Budget(int(chip["l1_size"]) - int(chip["l1_unreserved_base"]), per_leaf,
                  sum(_tile_cost(v) for v in leaf.outputs), fixed)


def _tile_cost(value: SSAValue) -> int:
    tile = value.type.element_type
    return hardware.tile_bytes(tile.dtype, tuple(tile.dims)) * NUM_BUFFERS


def merge_schedule(bands: int, cap: int, limit: int) -> list[int] | None:
    """The group count after each merge round, collapsing `bands` to 1: each round the fewest groups dividing the
    bands with at most `cap` bands a group (at most `limit` cores); None when a round has none."""
    schedule = []
    while bands > 1:
        groups = next((g for g in range(1, bands) if bands % g == 0 and bands // g <= cap and g <= limit), None)
        if groups is None:
            return None
        schedule.append(groups)
        bands = groups
    return schedule


def chain_buffers(leaf: d2m.GenericOp) -> list[tuple[SSAValue, d2m.GenericOp]]:
    """The buffers the chain is built with, in build order, each with the generic it is used on: what the generics
    writing the leaf's input write, the leaf's scratch, values and indices, then what the generics reading its
    results write."""
    before, after = chain_of(leaf)
    return [*((g.outputs[0], g) for g in before), (leaf.inputs[1], leaf), *((v, leaf) for v in leaf.outputs),
            *((g.outputs[0], g) for g in after)]


def placements(leaf: d2m.GenericOp) -> list[TopKPlacementAttr]:
    """Each chain buffer where the chain holds it now."""
    return [TopKPlacementAttr(value.type, generic.attributes["grid"]) for value, generic in chain_buffers(leaf)]


def sliced(t: TensorType, grid: tuple[int, int]) -> TensorType:
    """A chain buffer's type split over `grid`: its tiles shared out (the one-tile scratch: one per core)."""
    shape = t.get_shape()
    if tuple(shape) == (1, 1, 1, 1):
        return TensorType(t.element_type, [*grid, 1, 1], t.encoding)
    tiles = [shape[i] * shape[i + 2] for i in range(2)]
    return TensorType(t.element_type, [*grid, *(n // g for n, g in zip(tiles, grid))], t.encoding)


def _slices(nt: int, red: int, budget: Budget, limit: int) -> int | None:
    """The most slices of `nt` non-target tiles (a divisor, at most `limit`) with each core's share within budget."""
    fitting = [s for s in range(1, min(nt, limit) + 1) if nt % s == 0 and (nt // s) * red <= budget.max_tiles]
    return max(fitting) if fitting else None


def _bands(nt: int, red: int, kt: int, budget: Budget, limit: int) -> tuple[int, list[int]] | None:
    """The fewest bands (powers of two first) dividing the `red` reduction tiles into bands of at least two tiles
    that one core holds beside its `nt` non-target tiles, at most `limit` of them, with a merge tree to close
    them; and that tree's schedule."""
    candidates = [b for b in range(2, min(red, limit) + 1) if red % b == 0 and red // b >= 2]
    for bands in sorted(candidates, key=lambda b: (b & (b - 1) != 0, b)):
        leaf_tiles = (red // bands) * nt
        if leaf_tiles > budget.max_tiles:
            continue
        schedule = merge_schedule(bands, budget.merge_cap(leaf_tiles, kt * nt), limit)
        if schedule is not None:
            return bands, schedule
    return None


def _device(element: ttcore.TileType, grid: tuple[int, int], shard: tuple[int, int]) -> TensorType:
    """A chain buffer a split adds: `grid` of `shard` tiles, its logical shape the tiles it holds."""
    logical = tuple(g * t * TILE for g, t in zip(grid, shard))
    intervals = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2, 2]), [0, 1, 1, 2])
    layout = ttcore.MetalLayoutAttr(ttcore.MetalLayout(logical, (TILE, TILE), intervals, "l1", "sharded"))
    return TensorType(element, [*grid, *shard], layout)


def band_placements(leaf: d2m.GenericOp, bands: int, schedule: list[int], nt: int, kt: int,
                    ) -> list[TopKPlacementAttr]:
    """The buffers a banded topk adds after its leaf, in build order: each band's values and indices narrowed to
    its best `kt` tiles, then per merge round the gathered values and indices on the round's cores, the merge's
    values and indices, narrowed again."""
    dim = topk_block_of(leaf).dim.value.data
    values, indices = (v.type.element_type for v in leaf.outputs)

    def on(groups: int, red_tiles: int) -> list[TopKPlacementAttr]:
        grid = (1, groups) if dim == 1 else (groups, 1)
        shard = (nt, red_tiles) if dim == 1 else (red_tiles, nt)
        at = ttcore.GridAttr(ttcore.Grid(grid))
        return [TopKPlacementAttr(_device(e, grid, shard), at) for e in (values, indices)]

    made = on(bands, kt)
    for groups in schedule:
        wide = on(groups, bands // groups * kt)
        made += [*wide, *wide, *on(groups, kt)]
        bands = groups
    return made


def plan_topk(leaf: d2m.GenericOp, chip: dict, device: tuple[int, int]) -> None:
    """The leaf's `d2m.topk_plan` (see the module doc)."""
    block = topk_block_of(leaf)
    dim, k = block.dim.value.data, block.k.value.data
    shape = leaf.inputs[0].type.get_shape()
    red, nt = shape[2 + dim], shape[3 - dim]
    budget = budget_of(leaf, chip)
    if red * nt <= budget.max_tiles:
        leaf.attributes[PLAN_ATTR] = TopKPlanAttr(IntAttr(1), IntAttr(1), ArrayAttr([]), ArrayAttr(placements(leaf)))
        return
    kt = -(-k // TILE)
    band_limit, slice_limit = (device[1], device[0]) if dim == 1 else (device[0], device[1])
    if (banded := _bands(nt, red, kt, budget, band_limit)) is not None:
        bands, schedule = banded
        grid = (1, bands) if dim == 1 else (bands, 1)
        made = [TopKPlacementAttr(sliced(value.type, grid), ttcore.GridAttr(ttcore.Grid(grid)))
                for value, generic in chain_buffers(leaf) if generic is leaf or generic in chain_of(leaf)[0]]
        made += band_placements(leaf, bands, schedule, nt, kt)
        made += [TopKPlacementAttr(value.type, generic.attributes["grid"]) for value, generic in chain_buffers(leaf)
                 if generic in chain_of(leaf)[1]]
        leaf.attributes[PLAN_ATTR] = TopKPlanAttr(IntAttr(bands), IntAttr(1), ArrayAttr([IntAttr(g) for g in schedule]),
                                                  ArrayAttr(made))
        return
    count = _slices(nt, red, budget, slice_limit)
    if count is None:
        raise PassFailure(block, f"D2M topk: no split of the reduction (bands) or of the non-target dimension "
                                 f"(slices) fits the per-core tile budget ({budget.max_tiles} tiles) with a merge tree "
                                 "this worker grid can hold; splitting both is not built yet")
    grid = (count, 1) if dim == 1 else (1, count)
    made = [TopKPlacementAttr(sliced(value.type, grid), ttcore.GridAttr(ttcore.Grid(grid)))
            for value, _ in chain_buffers(leaf)]
    leaf.attributes[PLAN_ATTR] = TopKPlanAttr(IntAttr(1), IntAttr(count), ArrayAttr([]), ArrayAttr(made))


def chain_generics(module: Operation) -> set[d2m.GenericOp]:
    """Every generic of a topk chain: their grids are the plan's, not grid selection's."""
    found = set()
    for leaf in leaves(module):
        before, after = chain_of(leaf)
        found.update([leaf, *before, *after])
    return found
