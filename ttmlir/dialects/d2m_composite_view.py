"""A view that lays several inputs side by side along one dim (a concatenation that moves no data until it is read):
`%v = "d2m.composite_view"(%a, %b) <{dim = 1 : si32}> : (A, B) -> C` (upstream prints it in generic form). Inputs and
result are metal-layout tensors (compared on their logical shapes) or device memrefs (compared on grid x shard
extents); the inputs agree with the result off `dim`, and on tensors their extents along `dim` add up to the
result's. `logicalSizes` records the inputs' logical sizes along `dim` (row-major inputs need them)."""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, MemRefType, TensorType
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_prop_def, prop_def, result_def, traits_def, \
    var_operand_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects import ttcore


def _extents(t: Attribute) -> list[int] | None:
    if isinstance(t, TensorType) and isinstance(t.encoding, ttcore.MetalLayoutAttr):
        return list(t.encoding.data.logical_shape)
    if isinstance(t, MemRefType):
        shape = t.get_shape()
        rank = len(shape) // 2
        return [shape[i] * shape[i + rank] for i in range(rank)]
    return None


@irdl_op_definition
class CompositeViewOp(IRDLOperation):
    name = "d2m.composite_view"
    inputs = var_operand_def()
    dim = prop_def(IntegerAttr)
    logicalSizes = opt_prop_def(DenseArrayBase)  # noqa: N815 - upstream's property name
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        out = _extents(self.result.type)
        if out is None:
            raise VerifyException(f"'{self.name}' op result must be a metal-layout tensor or a device memref")
        dim = self.dim.value.data
        if not 0 <= dim < len(out):
            raise VerifyException(f"'{self.name}' op dim out of range.")
        if not self.inputs:
            raise VerifyException(f"'{self.name}' op must have at least one input.")
        total = 0
        for value in self.inputs:
            extents = _extents(value.type)
            if extents is None or len(extents) != len(out):
                raise VerifyException(f"'{self.name}' op incompatible inputs & output ranks.")
            for i, (a, b) in enumerate(zip(extents, out)):
                if i == dim:
                    total += a
                elif a != b:
                    raise VerifyException(f"'{self.name}' op incompatible non-composite dim.")
        if isinstance(self.result.type, TensorType):  # logical shapes add up exactly
            if total != out[dim]:
                raise VerifyException(f"'{self.name}' op incompatible composite dim.")
            return
        # device memrefs may be aligned up past the inputs' sum; untiled ones say their logical sizes
        tiled = isinstance(self.result.type.element_type, ttcore.TileType)
        sizes = self.logicalSizes
        if tiled and sizes is not None:
            raise VerifyException(f"'{self.name}' op unneeded logicalSizes attr.")
        if not tiled:
            if sizes is None:
                raise VerifyException(f"'{self.name}' op missing logicalSizes attr.")
            if len(sizes.get_values()) != len(self.inputs):
                raise VerifyException(f"'{self.name}' op wrong logicalSizes length.")
            if sum(sizes.get_values()) > total:
                raise VerifyException(f"'{self.name}' op sum of logicalSizes exceeds output capacity.")


COMPOSITE_VIEW_OPS = [CompositeViewOp]
