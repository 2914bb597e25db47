"""Multi-chip TTIR ops on the D2M path. A `ttir.mesh_shard` becomes a `d2m.mesh_shard` of the same host tensor
(upstream's pattern); the collectives (`HOST_COLLECTIVES`) stay TTIR ops on host tensors, each a host command of the TTMetal program
(`conversion/d2m_to_ttmetal/ccl.py`) that the runtime runs over the fabric between the chips' programs."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from ttmlir.dialects.d2m_mesh_shard import MeshShardOp
from ttmlir.errors import PassFailure
from ttmlir.ir.tt_op import TTOp

# kept as they are: the Metal conversion makes each a collective command
HOST_COLLECTIVES = ("all_gather", "all_reduce", "all_reduce_async", "reduce_scatter", "mesh_partition",
                    "collective_permute", "all_to_all", "collective_broadcast")


def mesh_shard(convert, op: TTOp, device: tuple[int, int]) -> tuple[list[Operation], SSAValue]:
    if op.prop("shard_type").data.value == "maximal":
        raise PassFailure(op, "Invalid shard_type (maximal) for mesh_shard op.")
    props = {name: op.prop(name) for name in ("shard_type", "shard_direction", "shard_shape", "shard_dims")}
    made = MeshShardOp.create(operands=[op.operands[0]], properties=props, result_types=[op.results[0].type])
    return [made], made.result


MESH_PROGRAMS = {"mesh_shard": mesh_shard}
