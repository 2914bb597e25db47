"""`--ttnn-operation-validation-and-fallback`: check each TTNN op's operands and result against what its kernel
accepts and produces, and fall back to conversions where they disagree.

Two facts decide: the operand layouts and data types a kernel needs (the table `--ttnn-workaround` applies), and
what the kernel writes: an op that computes in its input's format (eltwise, reductions, data movement) writes its
first operand's data type and page layout unless it names its own `dtype`. An operand the kernel cannot read is
converted before the op; a result declared otherwise than the kernel writes is retyped to what it writes and
converted to the declared type after the op (a `ttnn.to_tensor_spec`, broken down by --ttnn-decompose-layouts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass

from ttmlir.dialects import ttnn
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.passes import PassFailure
from ttmlir.passes.ttnn_workarounds import WORKAROUNDS, Want, apply_workaround, retyped

# families whose kernels write their first operand's data type and page layout
FORMAT_PRESERVING = {"unary", "binary", "ternary", "reduction", "reshape", "permute", "concat", "slice", "repeat",
                     "pad", "softmax", "repeat_interleave", "reverse"}


def produced(op: TTNNOp) -> Want | None:
    """What the kernel writes as its result, when it follows from its operands."""
    if op.ROW.family not in FORMAT_PRESERVING or op.ROW.name == "argmax" or len(op.results) != 1:
        return None
    first = next((v for v in op.operands if isinstance(v.type, TensorType)), None)
    if first is None or not isinstance(first.type.encoding, ttnn.TTNNLayoutAttr):
        return None
    layout = first.type.encoding
    dtype = op.prop("dtype").data.value if op.prop("dtype") is not None else layout.data_type
    return Want("tile" if layout.is_tiled else "row_major", dtype)


@dataclass(frozen=True)
class TTNNOperationValidationAndFallbackPass(ModulePass):
    """Convert operands a kernel cannot read; retype results to what the kernel writes and convert them back."""

    name: ClassVar[str] = "ttnn-operation-validation-and-fallback"
    max_fallback_attempts: int = 10000

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        fallbacks = 0
        for op in list(module.walk()):
            if not isinstance(op, TTNNOp) or not _on_device(op):
                continue
            wants = dict(WORKAROUNDS[op.ROW.name](op)) if op.ROW.name in WORKAROUNDS else {}
            if "result" not in wants and (want := produced(op)) is not None \
                    and retyped(op.results[0].type, want) != op.results[0].type:
                wants["result"] = want
            if not wants:
                continue
            fallbacks += 1
            if fallbacks > self.max_fallback_attempts:
                raise PassFailure(op, f"operation validation needs more than max-fallback-attempts="
                                      f"{self.max_fallback_attempts} fallbacks")
            apply_workaround(op, wants)


def _on_device(op: TTNNOp) -> bool:
    values = [v for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)]
    return bool(values) and all(isinstance(v.type.encoding, ttnn.TTNNLayoutAttr) and
                                v.type.encoding.buffer_type != "system_memory" for v in values)
