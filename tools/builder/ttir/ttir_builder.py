"""TTIRBuilder: one method per TTIR op, generated from the op table, plus the multi-device helpers.

`builder.sigmoid(in0)`, `builder.matmul(a, b, transpose_b=True)`, `builder.conv2d(x, w, stride=1,
padding=0, dilation=1, groups=1)`: operands first, then the op's properties by their TTIR names.
`help(TTIRBuilder.conv2d)` shows an op's arguments.
"""

from __future__ import annotations

from typing import Sequence

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, TensorType

from builder.base.builder import Builder, BuilderError, Operand, op_method
from ttmlir.runtime.ccl import shard_of
from ttmlir.dialects import ttcore
from ttmlir.ir.op_table import TTIR_OPS
from ttmlir.dialects.ttir import TTIR_OP_CLASSES

SHAPED = {"arange", "empty"}  # ops whose result shape is an argument, not a property


class TTIRBuilder(Builder):
    """Builds TTIR modules with goldens (seed 002)."""

    DIALECT = "ttir"
    OPS = TTIR_OP_CLASSES

    def preshard_arg(self, operand: Operand, shard_dims: Sequence[int]) -> None:
        """Mark a function input as already sharded over the mesh along `shard_dims` (one per mesh axis)."""
        block = operand.owner
        func = block.parent_op()
        full = self._goldens[operand][0]
        mesh = self.mesh_shape
        shards = {d: shard_of(full, shard_dims, divmod(d, mesh[1]), mesh) for d in self.devices}
        local = TensorType(operand.type.element_type, list(shards[0].shape))
        attrs = [dict(a.data) for a in func.arg_attrs.data] if func.arg_attrs is not None else \
            [{} for _ in block.args]
        attrs[operand.index]["ttcore.runtime_tensor_sharding"] = ttcore.RuntimeTensorShardingAttr(("presharded",
                                                                                                   local))
        func.arg_attrs = ArrayAttr([DictionaryAttr(a) for a in attrs])
        self._overrides[operand] = shards
        self._reevaluate()

    def bypass(self, operand: Operand) -> None:
        """Leave this op's output out of golden checks (e.g. an op known to differ from its golden)."""
        owner = operand.owner
        if not hasattr(owner, "location"):
            raise BuilderError("bypass takes an op result, not a function input")
        from ttmlir.target.ttnn import ProgramWriter

        self._bypass_ops.append(ProgramWriter.loc(owner))


def _to_layout(self, in0: Operand, output_type=None, loc=None):
    """`ttir.to_layout` of `in0` into a fresh `ttir.empty` destination of the result's type."""
    return self._to_layout_into(in0, self.empty(shape=in0.type.get_shape(), output_type=output_type), loc=loc)


for _row in TTIR_OPS:
    setattr(TTIRBuilder, _row.name, op_method(_row.name, _row, ("shape",) if _row.name in SHAPED else ()))
TTIRBuilder._to_layout_into, TTIRBuilder.to_layout = TTIRBuilder.to_layout, _to_layout
