"""`d2m.mesh_shard`: a host tensor cut into each chip's piece (full_to_shard) or the chips' pieces joined into one
(shard_to_full) around a multi-chip program, as upstream's D2M_MeshShardOp; it stays on the host and becomes a
`ttmetal.mesh_shard` command."""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, MemRefType, TensorType
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects import ttcore


@irdl_op_definition
class MeshShardOp(IRDLOperation):
    name = "d2m.mesh_shard"
    input = operand_def(TensorType | MemRefType)
    shard_type = prop_def(ttcore.ShardTypeAttr)
    shard_direction = prop_def(ttcore.ShardDirectionAttr)
    shard_shape = prop_def(DenseArrayBase)
    shard_dims = prop_def(DenseArrayBase)
    result = result_def(TensorType | MemRefType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        if self.shard_type.data.value == "maximal":
            raise VerifyException("Invalid shard_type (maximal) for mesh_shard op.")


MESH_SHARD_OPS = [MeshShardOp]
