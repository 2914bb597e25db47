"""The multi-chip ops of a D2M function as host commands of its TTMetal program: a `d2m.mesh_shard` as a
`ttmetal.mesh_shard`, each TTIR collective kept by `--ttir-to-d2m` as the `ttmetal` collective of the same name
(all_reduce_async as all_reduce: the same values). Each reads a host buffer of every chip and makes a new one; the
runtime runs them over the mesh the module registers."""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation

from ttmlir.dialects import ttmetal
from ttmlir.dialects.ttmetal_ccl import (AllGatherOp, AllReduceOp, AllToAllOp, CollectiveBroadcastOp,
                                         CollectivePermuteOp, MeshPartitionOp, ReduceScatterOp)
from ttmlir.errors import PassFailure
from ttmlir.ir.props import dense_values, scalar

# the reductions the fabric's collectives compute (the runtime's `ccl.REDUCE`)
REDUCE_TYPES = ("sum", "mean", "max", "min", "prod")
# op -> (the ttmetal op, its properties, the property naming the tensor dim it works along, if any)
COLLECTIVES = {
    "ttir.all_gather": (AllGatherOp, ("all_gather_dim", "cluster_axis"), "all_gather_dim"),
    "ttir.all_reduce": (AllReduceOp, ("reduce_type", "cluster_axis"), None),
    "ttir.all_reduce_async": (AllReduceOp, ("reduce_type", "cluster_axis"), None),  # the same values
    "ttir.reduce_scatter": (ReduceScatterOp, ("reduce_type", "scatter_dim", "cluster_axis"), "scatter_dim"),
    "ttir.mesh_partition": (MeshPartitionOp, ("dim", "cluster_axis"), "dim"),
    "ttir.collective_permute": (CollectivePermuteOp, ("source_target_pairs",), None),
    "ttir.all_to_all": (AllToAllOp, ("split_dim", "concat_dim", "split_count", "replica_groups"), "split_dim"),
    "ttir.collective_broadcast": (CollectiveBroadcastOp, ("replica_groups",), None),
}
CHIP_TABLES = ("source_target_pairs", "replica_groups")  # chip ids, row-major over the mesh
HOST_COMMANDS = ("d2m.mesh_shard", *COLLECTIVES)


def _checked(op: Operation, mesh: tuple[int, int]) -> None:
    """What the runtime could not run is refused here: an axis the mesh lacks, a dim the tensor lacks, a reduction
    the fabric does not compute."""
    if op.name == "d2m.mesh_shard":
        dims = list(op.shard_dims.get_values())
        if len(dims) > 2 or any(not -1 <= d < len(op.input.type.get_shape()) for d in dims):
            raise PassFailure(op, f"shard_dims {dims} name one tensor dim (or -1) per mesh axis of the "
                                  f"{mesh[0]}x{mesh[1]} mesh")
        return
    for table in CHIP_TABLES:
        if table in op.properties:
            ids = [int(v) for v in dense_values(op.properties[table])]
            if any(not 0 <= chip < mesh[0] * mesh[1] for chip in ids):
                raise PassFailure(op, f"{table} {ids} name a chip outside the {mesh[0]}x{mesh[1]} mesh")
    axis = op.properties.get("cluster_axis")
    if axis is not None and scalar(axis) not in (0, 1):
        raise PassFailure(op, f"cluster_axis {scalar(axis)} is not an axis of the {mesh[0]}x{mesh[1]} mesh")
    _, _, dim_name = COLLECTIVES[op.name]
    rank = len(op.operands[0].type.get_shape())
    if dim_name is not None and not -rank <= scalar(op.properties[dim_name]) < rank:
        raise PassFailure(op, f"{dim_name} {scalar(op.properties[dim_name])} is not a dim of a rank-{rank} tensor")
    reduce = op.properties.get("reduce_type")
    if reduce is not None and reduce.data.value not in REDUCE_TYPES:
        raise PassFailure(op, f"reduce_type '{reduce.data.value}' is not computed by the fabric's collectives "
                              f"({', '.join(REDUCE_TYPES)} are)")
    if dim_name is None or op.name == "ttir.all_to_all":  # its pieces' count is its groups' size
        return
    dim = scalar(op.properties[dim_name]) % rank
    chips = mesh[scalar(axis)] if axis is not None else mesh[0] * mesh[1]
    source, result = op.operands[0].type.get_shape()[dim], op.results[0].type.get_shape()[dim]
    if (source * chips if op.name == "ttir.all_gather" else source) != \
            (result if op.name == "ttir.all_gather" else result * chips):
        raise PassFailure(op, f"dim {dim} of {source} -> {result} does not match the {chips} chip(s) "
                              f"{'along mesh axis ' + str(scalar(axis)) if axis is not None else 'of the mesh'} of the "
                              f"{mesh[0]}x{mesh[1]} mesh; compile for the mesh the graph was written for (mesh-shape)")


def host_command(op: Operation, source, mesh: tuple[int, int]) -> Operation:
    """`op` on the host buffer `source` (every chip's), its result a new host buffer."""
    _checked(op, mesh)
    t = op.results[0].type
    result = MemRefType(t.element_type, t.get_shape())
    if op.name == "d2m.mesh_shard":
        cls, names = ttmetal.MeshShardOp, ("shard_type", "shard_direction", "shard_shape", "shard_dims")
    else:
        cls, names, dim_name = COLLECTIVES[op.name]
    props = {name: op.properties[name] for name in names if name in op.properties}
    rank = len(t.get_shape())
    for name in (dim_name, "concat_dim") if op.name != "d2m.mesh_shard" else ():
        if name in props:  # a negative dim counted from the end, as stored
            props[name] = type(props[name])(scalar(props[name]) % rank, props[name].type)
    return cls.create(operands=[source], properties=props, result_types=[result])
