"""`--ttnn-configure-ccl-ops`: CCL ops given no topology route over the one the device registers for their
cluster axis (`ttcore.device`'s meshTopology, from `ttcore-register-device mesh-topology=...`).

meshTopology is indexed as the mesh shape is (rows first), while cluster_axis 1 moves along a row: axis a's
topology is meshTopology[rank - 1 - a]. An op with a topology keeps it; a disabled axis sets none."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttmlir.dialects import ttcore
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.ir.props import KINDS, scalar

CCL_OPS = frozenset({"all_gather", "all_reduce", "reduce_scatter"})


def _mesh_topology(op) -> tuple[str, ...]:
    """Of the device registered on the nearest module around `op` that has one (modules may nest)."""
    holder = op.parent_op()
    while holder is not None:
        if isinstance(holder, ModuleOp):
            for device in holder.ops:
                if isinstance(device, ttcore.DeviceOp):
                    return device.device_attr.data.mesh_topology
        holder = holder.parent_op()
    return ()


@dataclass(frozen=True)
class TTNNConfigureCCLOpsPass(ModulePass):
    """Set each CCL op's topology from the registered device's per-axis mesh topology."""

    name: ClassVar[str] = "ttnn-configure-ccl-ops"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in module.walk():
            if not isinstance(op, TTNNOp) or op.ROW.name not in CCL_OPS or op.prop("topology") is not None:
                continue
            topology = _mesh_topology(op)
            index = len(topology) - 1 - scalar(op.prop("cluster_axis"))
            if 0 <= index < len(topology) and topology[index] != "disabled":
                op.properties["topology"] = KINDS["topology"].build(topology[index])
