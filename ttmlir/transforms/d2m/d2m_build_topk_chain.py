"""`--d2m-build-topk-chain`: each topk leaf's `d2m.topk_plan` (from `--d2m-grid-selection`) built and consumed.

The plan names every buffer of the chain `--ttir-to-d2m` wrote, in build order (see `topk_sharding.chain_buffers`),
with its type and the grid of its generic. Each buffer is made as the plan types it (its `d2m.empty`), each chain
generic put on its grid, and everything the buffers flow into follows: the laid-out input (and its mask) on the
cores of the generic reading it, the generics' results, the views narrowing the leaf's results for the extracts,
the blocks the regions load and store (the leaf's `d2m.topk_block` among them). A one-core plan leaves the chain as it is; a data-parallel one (ntShards) slices it across its cores.

A banded plan (numShards bands of the reduction, one core each) adds the merge tree after the leaf, from its
placements in order: each band's partial narrowed to its best ceil(k/32) tiles (a generic copying the view naming
them); then per merge round the values and the indices gathered onto the round's cores (a generic each, reading a
`d2m.composite_view` of the level re-split there), one generic of a `d2m.topk_block` taking the indices it is
given (no `generate_indices`) over the gathered bands, and its results narrowed again. The extracts read the last
level."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, IntegerAttr, IntegerType, ModuleOp, Signedness, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.conversion.ttir_to_d2m.row_gather import copy_block
from ttmlir.conversion.ttir_to_d2m.topk import region_generic, topk_body
from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_composite_view import CompositeViewOp
from ttmlir.dialects.d2m_topk import TopkBlockOp
from ttmlir.dialects.d2m_topk_plan import PLAN_ATTR, TopKPlacementAttr, TopKPlanAttr
from ttmlir.errors import PassFailure
from ttmlir.transforms.d2m.d2m_grid_selection import _place
from ttmlir.transforms.d2m.topk_sharding import TILE, chain_buffers, chain_of, sliced, topk_block_of
from ttmlir.transforms.ttcore.register_device import device_module_of


def _retype(value: SSAValue, new) -> SSAValue:
    return value if value.type == new else Rewriter.replace_value_with_new_type(value, new)


def _shard(t: TensorType) -> TensorType:
    return TensorType(t.element_type, t.get_shape()[len(t.get_shape()) // 2:])


def _follow(generic: d2m.GenericOp) -> None:
    """`generic`'s results and the blocks its region loads and stores, as its operands now are."""
    for result, output in zip(list(generic.results), generic.outputs):
        _retype(result, output.type)
    for inner in list(generic.regions[0].walk()):
        if isinstance(inner, d2m.RemoteLoadOp):
            _retype(inner.local, _shard(inner.source.type))
            _retype(inner.result, _shard(inner.source.type))
        elif isinstance(inner, d2m.RemoteStoreOp):
            shard = _shard(inner.dest.type)
            local = inner.local
            if isinstance(local.owner, TopkBlockOp):
                block = local.owner
                _retype(block.out_values if local is block.results[0] else block.out_indices, shard)
            elif local.owner.name == "linalg.generic":
                _retype(local.owner.outputs[0], shard)
            _retype(inner.local, shard)
            _retype(inner.result, inner.dest.type)


def _red_tiles(t: TensorType, dim: int) -> int:
    """The reduction tiles of each core's shard of a buffer of type `t`."""
    return t.get_shape()[2 + dim]


def _copied(view: Operation, placement: TopKPlacementAttr, at: Operation) -> SSAValue:
    """A generic on the placement's grid copying `view` into a new buffer of the placement's type (before `at`)."""
    empty = d2m.EmptyOp.create(result_types=[placement.type])
    identity = AffineMap.identity(2)
    generic = region_generic([view.results[0]], [empty.result], [identity, identity],
                             lambda ops, blocks: [copy_block(ops, blocks[:1], blocks[1], [])],
                             tuple(placement.grid.data.shape))
    at.parent_block().insert_ops_before([view, empty, generic], at)
    return generic.results[0]


def _compact(value: SSAValue, placement: TopKPlacementAttr, dim: int, at: Operation) -> SSAValue:
    """Each core's best `kt` reduction tiles of `value` (a band's partial), through a view naming them."""
    kt, band = _red_tiles(placement.type, dim), _red_tiles(value.type, dim)
    d = [AffineExpr.dimension(i) for i in range(4)]
    red = d[2 + dim]
    results = list(d)
    results[2 + dim] = (red // kt) * band + red % kt if band != kt else red
    view = d2m.ViewLayoutOp.create(operands=[value], properties={"remapping": AffineMapAttr(AffineMap(4, 0, tuple(results)))},
                                   result_types=[placement.type])
    return _copied(view, placement, at)


def _gathered(value: SSAValue, placement: TopKPlacementAttr, dim: int, at: Operation) -> SSAValue:
    """The bands of `value` gathered onto the round's cores: a composite view of it re-split there."""
    view = CompositeViewOp.create(operands=[value], result_types=[placement.type],
                                  properties={"dim": IntegerAttr(dim, IntegerType(32, Signedness.SIGNED))})
    return _copied(view, placement, at)


def _merged(values: SSAValue, indices: SSAValue, outs: list[TopKPlacementAttr], k: int, dim: int,
            at: Operation) -> tuple[SSAValue, SSAValue]:
    """A merge round's generic: one `d2m.topk_block` over the gathered values and the indices they carry."""
    empties = [d2m.EmptyOp.create(result_types=[p.type]) for p in outs]
    elements = _red_tiles(outs[0].type, dim) * TILE
    generic = region_generic([values, indices], [e.result for e in empties], [AffineMap.identity(2)] * 4,
                             topk_body(k, dim, elements, False), tuple(outs[0].grid.data.shape))
    at.parent_block().insert_ops_before([*empties, generic], at)
    return generic.results[0], generic.results[1]


def _build_bands(leaf: d2m.GenericOp, placed: list[TopKPlacementAttr], rounds: int, at: Operation
                 ) -> tuple[SSAValue, SSAValue]:
    """The merge tree of a banded leaf (see the module doc): its values and indices at the last level."""
    block = topk_block_of(leaf)
    k, dim = block.k.value.data, block.dim.value.data
    level = [_compact(v, p, dim, at) for v, p in zip(leaf.results, placed[:2])]
    for r in range(rounds):
        wide = placed[2 + 6 * r:4 + 6 * r]
        merged = placed[4 + 6 * r:6 + 6 * r]
        narrow = placed[6 + 6 * r:8 + 6 * r]
        gathered = [_gathered(v, p, dim, at) for v, p in zip(level, wide)]
        level = [_compact(v, p, dim, at) for v, p in zip(_merged(*gathered, merged, k, dim, at), narrow)]
    return level[0], level[1]


def build_chain(leaf: d2m.GenericOp, device: tuple[int, int]) -> None:
    plan = leaf.attributes.get(PLAN_ATTR)
    if not isinstance(plan, TopKPlanAttr):
        raise PassFailure(leaf, f"'{PLAN_ATTR}' is a #d2m.topk_plan")
    bands, rounds = plan.num_shards.data, len(plan.merge_schedule.data)
    if (bands > 1) != (rounds > 0):
        raise PassFailure(leaf, f"a topk plan of {bands} bands has {rounds} merge rounds")
    buffers = chain_buffers(leaf)
    before, after = chain_of(leaf)
    lead = len(before) + 3
    added = 2 + 6 * rounds if bands > 1 else 0
    planned = list(plan.placements.data)
    if len(planned) != len(buffers) + added:
        raise PassFailure(leaf, f"the topk plan places {len(planned)} buffers; its chain has {len(buffers) + added}")
    for (value, generic), placement in zip(buffers, planned[:lead] + planned[lead + added:]):
        if not isinstance(value.owner, d2m.EmptyOp):
            raise PassFailure(generic, "a topk chain's buffers are made by d2m.empty")
        _retype(value, placement.type)
        generic.attributes["grid"] = placement.grid
    made = {value for value, _ in chain_buffers(leaf)}
    for generic in (*before, leaf):
        for operand in list(generic.inputs):
            if operand not in made and isinstance(operand.owner, (d2m.ToLayoutOp, d2m.MaskOp)):
                # the laid-out input (and its mask): on the chain's cores
                grid = tuple(generic.attributes["grid"].data.shape)
                _place(operand, sliced(operand.type, grid), device)
        _follow(generic)
    if bands > 1:  # the extracts read the tree's last level, as narrow as they are
        last = _build_bands(leaf, planned[lead:lead + added], rounds, leaf.next_op)
        for generic in after:
            for operand in list(generic.inputs):
                view = operand.owner
                if isinstance(view, d2m.ViewLayoutOp) and view.input in leaf.results:
                    view.result.replace_all_uses_with(last[list(leaf.results).index(view.input)])
                    view.detach()
                    view.erase()
    for generic in after:
        for operand in generic.inputs:
            view = operand.owner
            if isinstance(view, d2m.ViewLayoutOp) and not isinstance(view.input.owner, d2m.ViewLayoutOp):
                # a narrowing view: as many tiles per core as the generic reading it writes
                out = generic.outputs[0].type
                _retype(view.result, TensorType(view.result.type.element_type, out.get_shape(),
                                                view.result.type.encoding))
        _follow(generic)
    del leaf.attributes[PLAN_ATTR]


@dataclass(frozen=True)
class D2MBuildTopKChainPass(ModulePass):
    """Each planned topk chain built (see the module doc)."""

    name: ClassVar[str] = "d2m-build-topk-chain"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        system = device_module_of(op).attributes.get("ttcore.system_desc")
        if not isinstance(system, ttcore.SystemDescAttr):
            raise PassFailure(op, "module has no ttcore.system_desc attribute (run --ttcore-register-device first)")
        device = tuple(system.data.chip(0)["grid"])
        for leaf in [g for g in op.walk() if isinstance(g, d2m.GenericOp) and PLAN_ATTR in g.attributes]:
            build_chain(leaf, device)
