"""`--ttnn-row-major-reshapes`: a reshape that would pad its tiled result to 4x or more the tiles its input fills
reshapes row-major instead, when only the host or row-major readers take its result.

A tiled tensor pads its last two dimensions to 32: reshaping (32, N) to (32, 1, N) writes 32 times the tiles it
reads (each row its own padded tile row). Untilized first, the same reshape keeps the last dimension and moves no
data in TTNN (a view), so a program's returned logits, or what an argmax reads row-major anyway, cost one untilize
of the unpadded input instead. Below 4x (a prefill's (544, N) -> (32, 17, N) pads 1.9x, a conv's rows to a
16x16 image 2x) the tiled result is left as upstream returns it: the optimizer may shard what produces it. Upstream has no such pass; it runs after the workarounds in every TTNN pipeline.
"""

from __future__ import annotations

import math

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import ttnn
from ttmlir.ir.syntax import enum
from ttmlir.transforms.ttnn.ttnn_utils import device_functions, ttnn_op
from ttmlir.transforms.ttnn.ttnn_workaround import Want, retyped

INTERLEAVED = enum(ttnn.TensorMemoryLayoutAttr, "interleaved")
MIN_PADDING_GROWTH = 4  # result tiles per input tile below which the tiled reshape is left alone


def _row_major(t: TensorType) -> TensorType:
    return retyped(t, Want(layout="row_major"))


def _tiles(t: TensorType) -> int:
    return math.prod(ttnn.physical_shape(tuple(t.get_shape()), tiled=True))


def _interleaved_tiles(t) -> bool:
    layout = getattr(t, "encoding", None)
    return isinstance(layout, ttnn.TTNNLayoutAttr) and layout.is_tiled and layout.buffer_type != "system_memory" \
        and layout.memory_layout == INTERLEAVED


def _candidate(op: Operation, public: bool) -> TensorType | None:
    """The row-major type of the reshape `op`'s result if every reader takes that (a to_tensor_spec to it, or the
    return of a program's entry point) and the reshape keeps the last dimension, padding to many more tiles."""
    if not (isinstance(op, ttnn.TTNNOp) and op.ROW.name == "reshape"):
        return None
    source, result = op.operands[0].type, op.results[0].type
    if not (_interleaved_tiles(source) and _interleaved_tiles(result)) or not result.get_shape() or \
            source.get_shape()[-1:] != result.get_shape()[-1:] or \
            _tiles(result) < MIN_PADDING_GROWTH * _tiles(source):
        return None
    target = _row_major(result)
    for use in op.results[0].uses:
        reader = use.operation
        if isinstance(reader, ReturnOp) and public:
            continue
        if not (isinstance(reader, ttnn.TTNNOp) and reader.ROW.name == "to_tensor_spec"
                and reader.results[0].type == target):
            return None
    return target if op.results[0].uses else None


@dataclass(frozen=True)
class TTNNRowMajorReshapesPass(ModulePass):
    """Untilize before a reshape that pads its tiled result out, when its readers take it row-major."""

    name: ClassVar[str] = "ttnn-row-major-reshapes"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for func in device_functions(module):
            if func.is_declaration:
                continue
            public = func.sym_visibility is None or func.sym_visibility.data != "private"
            for op in list(func.body.block.ops):
                if (target := _candidate(op, public)) is not None:
                    self._untilize_first(op, target)
            ret = func.body.block.last_op
            if isinstance(ret, ReturnOp):
                func.function_type = FunctionType.from_lists(list(func.function_type.inputs),
                                                             [v.type for v in ret.operands])

    @staticmethod
    def _untilize_first(reshape: Operation, target: TensorType) -> None:
        source = reshape.operands[0]
        untilize = ttnn_op("to_tensor_spec", [source], {}, [_row_major(source.type)], reshape)
        rows = ttnn_op("reshape", [untilize.results[0]], dict(reshape.properties), [target], reshape)
        Rewriter.insert_op([untilize, rows], InsertPoint.before(reshape))
        for use in list(reshape.results[0].uses):
            reader = use.operation
            if isinstance(reader, ReturnOp):
                reader.operands[use.index] = rows.results[0]
            else:
                reader.results[0].replace_all_uses_with(rows.results[0])
                Rewriter.erase_op(reader)
        Rewriter.erase_op(reshape)
