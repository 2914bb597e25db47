"""TTNNBuilder: one method per TTNN compute op, on device tensors (tile layout in DRAM, interleaved).

Methods exist for the TTNN ops a golden can define without a device handle: every op carried over
from TTIR (`add`, `divide`, `matmul`, `softmax`, ...) plus `repeat`, `permute`, `typecast`,
`to_layout` and `to_memory_config`. Compute ops get the `dtype` property of their result, as the
TTIR→TTNN conversion gives them.
"""

from __future__ import annotations

from typing import Sequence

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute

from builder.base.builder import Builder, op_method
from golden.mapping import MESH_GOLDENS, TTNN_GOLDENS
from ttmlir.dialects import ttcore, ttnn
from ttmlir.dialects.syntax import enum
from ttmlir.dialects.ttnn import TTNN_OP_CLASSES

DEVICE_FREE = [name for name, cls in TTNN_OP_CLASSES.items() if (name in TTNN_GOLDENS or name in MESH_GOLDENS)
               and "device" not in {o.rstrip("?*") for o in cls.ROW.operands}]


class TTNNBuilder(Builder):
    """Builds TTNN modules with goldens (seed 002)."""

    DIALECT = "ttnn"
    OPS = TTNN_OP_CLASSES

    def tensor_type(self, element: Attribute, shape: Sequence[int]) -> TensorType:
        shape = tuple(shape)
        return TensorType(element, shape, ttnn.layout_for(shape, element, "dram", True))

    def _build_op(self, name, operands, props, output_type=None, loc=None, unit_attrs=None, shape=None):
        row = self.OPS[name].ROW
        if any(p[0] == "dtype" for p in row.props) and props.get("dtype") is None:
            element = self._result_element(name, operands, output_type, props)
            props = {**props, "dtype": enum(ttcore.DataTypeAttr, ttnn.data_type_of(element))}
        return super()._build_op(name, operands, props, output_type, loc, unit_attrs, shape)

    def prepare_for_flatbuffer(self) -> ModuleOp:
        """A copy of the module with the device registered and intermediates deallocated."""
        from ttmlir.passes import run_pass

        module = run_pass(self._module.clone(), "ttcore-register-device", mesh_shape=self.mesh_shape)
        return run_pass(module, "ttnn-deallocate")


for _name in DEVICE_FREE:
    setattr(TTNNBuilder, _name, op_method(_name, TTNN_OP_CLASSES[_name].ROW))
