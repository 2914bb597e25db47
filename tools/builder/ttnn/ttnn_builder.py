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
from ttmlir.ir.syntax import enum
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

    def to_layout(self, in0, layout: str, output_type=None, loc=None):
        """Tilize (`layout="tile"`) or untilize (`"row_major"`) a device tensor."""
        return self._relaid("to_layout", in0, output_type, loc, tiled=layout == "tile")

    def to_memory_config(self, in0, buffer_type: str, output_type=None, loc=None):
        """Move a device tensor to the interleaved memory of `buffer_type` ("dram" or "l1")."""
        return self._relaid("to_memory_config", in0, output_type, loc, buffer=buffer_type)

    def _relaid(self, name, value, output_type, loc, tiled=None, buffer=None):
        """A layout op: what it makes is its result's layout, so the result is retyped after it is built."""
        result = self._build_op(name, [value], {}, output_type, loc)
        was = value.type.encoding
        shape = tuple(result.type.get_shape())
        result._type = TensorType(result.type.element_type, shape, ttnn.layout_for(
            shape, result.type.element_type, buffer or was.buffer_type, was.is_tiled if tiled is None else tiled))
        result.owner.verify_()
        return result

    def dump_tensor(self, operand, file_path: str, loc=None):
        """`ttnn.dump_tensor`: the runtime saves `operand`'s tensor to `file_path`, a `.tensorbin` file; returns
        `operand` (see `breakpoint`)."""
        return self._debug("dump_tensor", operand, loc, file_path=file_path)

    dump = dump_tensor  # debug.dump as a TTNN module holds it

    def prepare_for_flatbuffer(self) -> ModuleOp:
        """A copy of the module with the device registered and intermediates deallocated."""
        from ttmlir.passes import run_pass

        module = run_pass(self._module.clone(), "ttcore-register-device", mesh_shape=self.mesh_shape)
        return run_pass(module, "ttnn-deallocate")


for _name in DEVICE_FREE:
    if _name not in vars(TTNNBuilder):
        setattr(TTNNBuilder, _name, op_method(_name, TTNN_OP_CLASSES[_name].ROW))
