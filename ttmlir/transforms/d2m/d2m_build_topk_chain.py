"""`--d2m-build-topk-chain`: each topk leaf's `d2m.topk_plan` (from `--d2m-grid-selection`) built and consumed.

The plan names every buffer of the chain `--ttir-to-d2m` wrote, in build order (see `topk_sharding.chain_buffers`),
with its type and the grid of its generic. Each buffer is made as the plan types it (its `d2m.empty`), each chain
generic put on its grid, and everything the buffers flow into follows: the laid-out input (and its mask) on the
cores of the generic reading it, the generics' results, the views narrowing the leaf's results for the extracts,
the blocks the regions load and store (the leaf's `d2m.topk_block` among them). A one-core plan leaves the chain as it is; a data-parallel one (ntShards) slices it across its cores. A plan
banding the reduction (numShards above 1, merge rounds) is refused: building its merge tree is not supported yet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_topk import TopkBlockOp
from ttmlir.dialects.d2m_topk_plan import PLAN_ATTR, TopKPlanAttr
from ttmlir.errors import PassFailure
from ttmlir.transforms.d2m.d2m_grid_selection import _place
from ttmlir.transforms.d2m.topk_sharding import chain_buffers, chain_of, sliced
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


def build_chain(leaf: d2m.GenericOp, device: tuple[int, int]) -> None:
    plan = leaf.attributes.get(PLAN_ATTR)
    if not isinstance(plan, TopKPlanAttr):
        raise PassFailure(leaf, f"'{PLAN_ATTR}' is a #d2m.topk_plan")
    if plan.num_shards.data != 1 or plan.merge_schedule.data:
        raise PassFailure(leaf, f"a topk banded across cores (numShards = {plan.num_shards.data}) is not built yet")
    buffers = chain_buffers(leaf)
    planned = list(plan.placements.data)
    if len(planned) != len(buffers):
        raise PassFailure(leaf, f"the topk plan places {len(planned)} buffers; its chain has {len(buffers)}")
    for (value, generic), placement in zip(buffers, planned):
        if not isinstance(value.owner, d2m.EmptyOp):
            raise PassFailure(generic, "a topk chain's buffers are made by d2m.empty")
        _retype(value, placement.type)
        generic.attributes["grid"] = placement.grid
    before, after = chain_of(leaf)
    made = {value for value, _ in chain_buffers(leaf)}
    for generic in (*before, leaf, *after):
        for operand in list(generic.inputs):
            if operand not in made and isinstance(operand.owner, (d2m.ToLayoutOp, d2m.MaskOp)):
                # the laid-out input (and its mask): on the chain's cores
                grid = tuple(generic.attributes["grid"].data.shape)
                _place(operand, sliced(operand.type, grid), device)
                continue
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
