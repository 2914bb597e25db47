"""`--ttir-quant-data-type-conversion`: quantized element types store their integers at `target-bit-width` (signed,
its full range) instead of their own width, as tt-metal's quantization kernels take i32; scales and zero points stay.
A narrower target than a type's storage would not hold its values: refused.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects.quant import MAX_STORAGE_BITS, UniformQuantizedType, full_range
from ttmlir.errors import PassFailure

WIDTHS = (8, 16, 32, 64)


@dataclass(frozen=True)
class TTIRQuantDataTypeConversionPass(ModulePass):
    """Convert integer data types in quantized types to a specified bit width."""

    name: ClassVar[str] = "ttir-quant-data-type-conversion"
    target_bit_width: int = 32

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        width = self.target_bit_width
        if width not in WIDTHS:
            raise PassFailure(module, "Invalid quantization bit width (must be 8, 16, 32, or 64). ")
        if width > MAX_STORAGE_BITS:  # MLIR's quantized types store at most 32 bits
            raise PassFailure(module, f"illegal storage type size: {width}")

        def converted(t: Attribute) -> Attribute:
            if not (isinstance(t, TensorType) and isinstance(t.element_type, UniformQuantizedType)):
                return t
            q = t.element_type.data
            if width < q.width:
                raise PassFailure(module, f"Target integer type of width {width} is smaller than quantized type of "
                                          f"width {q.width}. Out of range.")
            low, high = full_range(True, width)
            element = UniformQuantizedType(replace(q, signed=True, width=width, storage_min=low, storage_max=high))
            return TensorType(element, t.get_shape(), t.encoding)

        for op in list(module.walk()):
            if isinstance(op, FuncOp):
                op.function_type = FunctionType.from_lists([converted(t) for t in op.function_type.inputs.data],
                                                           [converted(t) for t in op.function_type.outputs.data])
            for region in op.regions:
                for block in region.blocks:
                    for arg in list(block.args):
                        if (new := converted(arg.type)) != arg.type:
                            Rewriter.replace_value_with_new_type(arg, new)
            for result in list(op.results):
                if (new := converted(result.type)) != result.type:
                    Rewriter.replace_value_with_new_type(result, new)
