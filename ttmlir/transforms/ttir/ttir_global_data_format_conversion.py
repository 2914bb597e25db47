"""`--ttir-global-data-format-conversion`: every floating-point tensor inside a function computed in one format.

Function signatures stay: float arguments are cast to `target-format` on entry, results cast back before the
return, and every op's float results take the target element type (constants keep their data and are cast after).
Integer and boolean tensors are left as they are. Formats: `f32`, `bf16` (default), `bfp_bf8` (the block-float
tile type `!ttcore.tile<32x32, bfp_bf8>`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttcore
from ttmlir.ir.props import KINDS
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.errors import PassFailure

FORMATS = {"f32": Float32Type, "bf16": BFloat16Type, "bfp_bf8": lambda: ttcore.TileType((32, 32), "bfp_bf8")}
FLOATS = (Float32Type, BFloat16Type, Float16Type, ttcore.TileType)


def _float_tensor(t: Attribute) -> bool:
    return isinstance(t, TensorType) and isinstance(t.element_type, FLOATS)


def _retyped(t: TensorType, element: Attribute) -> TensorType:
    return TensorType(element, t.get_shape(), t.encoding)


def _cast(value: SSAValue, to: TensorType) -> Operation:
    return TTIR_OP_CLASSES["typecast"].create(operands=[value], result_types=[to],
                                              properties={"conservative_folding": KINDS["bool"].build(False)})


@dataclass(frozen=True)
class TTIRGlobalDataFormatConversionPass(ModulePass):
    """Convert all tensor data types to a target format (function signatures kept, casts at the boundaries)."""

    name: ClassVar[str] = "ttir-global-data-format-conversion"
    target_format: str = "bf16"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.target_format not in FORMATS:
            raise PassFailure(module, f"invalid target-format '{self.target_format}' for "
                                      f"ttir-global-data-format-conversion: expected one of {', '.join(FORMATS)}")
        target = FORMATS[self.target_format]()
        for func in [op for op in module.walk() if isinstance(op, FuncOp) and op.body.blocks]:
            self._convert(func, target)

    @staticmethod
    def _convert(func: FuncOp, target: Attribute) -> None:
        block = func.body.blocks[0]
        for arg in block.args:  # each cast goes to the top of the block
            if _float_tensor(arg.type) and arg.type.element_type != target:
                cast = _cast(arg, _retyped(arg.type, target))
                block.insert_op_before(cast, block.first_op)
                arg.replace_uses_with_if(cast.results[0], lambda use, c=cast: use.operation is not c)
        for op in list(block.ops):
            if isinstance(op, ReturnOp):
                for i, (value, want) in enumerate(zip(op.operands, func.function_type.outputs.data)):
                    if value.type != want and _float_tensor(want):
                        cast = _cast(value, want)
                        block.insert_op_before(cast, op)
                        op.operands[i] = cast.results[0]
                continue
            if not isinstance(op, TTOp) or not op.name.startswith("ttir."):
                continue
            if op.ROW.name == "constant":  # its data stays as written: cast after it
                result = op.results[0]
                if _float_tensor(result.type) and result.type.element_type != target:
                    cast = _cast(result, _retyped(result.type, target))
                    block.insert_op_after(cast, op)
                    result.replace_uses_with_if(cast.results[0], lambda use, c=cast: use.operation is not c)
                continue
            types = [_retyped(r.type, target) if _float_tensor(r.type) else r.type for r in op.results]
            if types != [r.type for r in op.results]:
                new = type(op).create(operands=list(op.operands), result_types=types, properties=dict(op.properties),
                                      attributes=dict(op.attributes))
                new.location = op.location
                Rewriter.replace_op(op, new)
