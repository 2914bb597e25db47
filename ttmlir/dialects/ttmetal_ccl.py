"""Collectives of a multi-chip TTMetal host program: commands the runtime runs over the ethernet fabric among the
chips of each line along mesh axis `cluster_axis`, from each chip's host buffer into a new one. Upstream's D2M path
writes all_gather as a fabric kernel; this build keeps each collective a host command (`CollectiveCommand` in the
`.ttm`), with the attributes of the TTIR op it comes from."""

from __future__ import annotations

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, MemRefType
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, prop_def, result_def

from ttmlir.dialects import ttcore


@irdl_op_definition
class AllGatherOp(IRDLOperation):
    name = "ttmetal.all_gather"
    input = operand_def(MemRefType)
    all_gather_dim = prop_def(IntegerAttr)
    cluster_axis = prop_def(IntegerAttr)
    result = result_def(MemRefType)


@irdl_op_definition
class AllReduceOp(IRDLOperation):
    name = "ttmetal.all_reduce"
    input = operand_def(MemRefType)
    reduce_type = prop_def(ttcore.ReduceTypeAttr)
    cluster_axis = prop_def(IntegerAttr)
    result = result_def(MemRefType)


@irdl_op_definition
class ReduceScatterOp(IRDLOperation):
    name = "ttmetal.reduce_scatter"
    input = operand_def(MemRefType)
    reduce_type = prop_def(ttcore.ReduceTypeAttr)
    scatter_dim = prop_def(IntegerAttr)
    cluster_axis = prop_def(IntegerAttr)
    result = result_def(MemRefType)


@irdl_op_definition
class MeshPartitionOp(IRDLOperation):
    """Each chip keeps its slice of `dim` of its own tensor: the one at its place along `cluster_axis`, or among
    all chips of the mesh without one."""

    name = "ttmetal.mesh_partition"
    input = operand_def(MemRefType)
    dim = prop_def(IntegerAttr)
    cluster_axis = opt_prop_def(IntegerAttr)
    result = result_def(MemRefType)


@irdl_op_definition
class CollectivePermuteOp(IRDLOperation):
    """Chip `target` gets chip `source`'s tensor for each (source, target) pair (chip ids row-major over the mesh);
    a chip no pair names gets zeros."""

    name = "ttmetal.collective_permute"
    input = operand_def(MemRefType)
    source_target_pairs = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(MemRefType)


@irdl_op_definition
class AllToAllOp(IRDLOperation):
    """Within each replica group the chip at place i gets piece i (along split_dim) of every member's tensor, joined
    along concat_dim in the group's order."""

    name = "ttmetal.all_to_all"
    input = operand_def(MemRefType)
    split_dim = prop_def(IntegerAttr)
    concat_dim = prop_def(IntegerAttr)
    split_count = prop_def(IntegerAttr)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(MemRefType)


@irdl_op_definition
class CollectiveBroadcastOp(IRDLOperation):
    """Every chip of a replica group gets the tensor of the group's first chip."""

    name = "ttmetal.collective_broadcast"
    input = operand_def(MemRefType)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(MemRefType)


CCL_OPS = [AllGatherOp, AllReduceOp, ReduceScatterOp, MeshPartitionOp, CollectivePermuteOp, AllToAllOp,
           CollectiveBroadcastOp]
