"""`--d2m-build-topk-chain`: each topk leaf's `d2m.topk_plan` (from `--d2m-grid-selection`) built and consumed.

The plan names every buffer of the chain in build order (see `topk_sharding.placements`). This build plans one
core per topk, for which `--ttir-to-d2m` has already written the chain on the planned buffers: each placement is
checked against the buffer the chain writes there (its type and the grid of its generic) and the plan dropped. A
plan splitting the topk across cores (numShards or ntShards above 1), or placing a buffer elsewhere than the chain
holds it, is refused: building such chains is not supported yet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from xdsl.passes import ModulePass

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_topk_plan import PLAN_ATTR, TopKPlanAttr
from ttmlir.errors import PassFailure
from ttmlir.transforms.d2m.topk_sharding import placements


def build_chain(leaf: d2m.GenericOp) -> None:
    plan = leaf.attributes.get(PLAN_ATTR)
    if not isinstance(plan, TopKPlanAttr):
        raise PassFailure(leaf, f"'{PLAN_ATTR}' is a #d2m.topk_plan")
    if plan.num_shards.data != 1 or plan.nt_shards.data != 1 or plan.merge_schedule.data:
        raise PassFailure(leaf, f"a topk split across cores (numShards = {plan.num_shards.data}, ntShards = "
                                f"{plan.nt_shards.data}) is not built yet")
    chain = placements(leaf)
    planned = list(plan.placements.data)
    if len(planned) != len(chain):
        raise PassFailure(leaf, f"the topk plan places {len(planned)} buffers; its one-core chain has {len(chain)}")
    for i, (want, have) in enumerate(zip(planned, chain)):
        if want != have:
            raise PassFailure(leaf, f"the topk plan's placement {i} ({want}) is not where its one-core chain holds "
                                    f"that buffer ({have}); moving it is not supported yet")
    del leaf.attributes[PLAN_ATTR]


@dataclass(frozen=True)
class D2MBuildTopKChainPass(ModulePass):
    """Each planned topk chain built (see the module doc)."""

    name: ClassVar[str] = "d2m-build-topk-chain"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for leaf in [g for g in op.walk() if isinstance(g, d2m.GenericOp) and PLAN_ATTR in g.attributes]:
            build_chain(leaf)
