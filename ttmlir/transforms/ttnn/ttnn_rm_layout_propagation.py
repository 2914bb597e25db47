"""`--ttnn-rm-layout-propagation`: integer inputs (token ids, indices, page tables) stay row-major as long as the ops
reading them can.

For each forward function's integer `input` argument held row-major on the device, a `ttnn.to_tensor_spec` that only
tilizes it is dropped and its readers read the argument as it is. Then, from those arguments through the graph, each
reader of a row-major value is one of:
- an op whose kernel reads that operand row-major (the operand tables of --ttnn-workaround): left as it is;
- an op whose kernel reads and writes row-major pages (`ROW_MAJOR_THROUGH`): its result becomes row-major, in the
  data type it declared, and its readers are visited in turn;
- a binary elementwise op (tt-metal's binary_ng reads either operand row-major and writes its first operand's page
  layout): it reads the value as it is; when the value is its first operand its result becomes row-major too and
  is visited in turn;
- the function's return: the value is tilized back to the declared result type;
- any other op: the value is tilized right before it (a `ttnn.to_tensor_spec`, broken down later).
What every op computes is unchanged; only where tilizing happens moves.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttcore, ttnn
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.transforms.ttnn.ttnn_utils import device_functions, helper_location, ttnn_op
from ttmlir.transforms.ttnn.ttnn_workaround import WORKAROUNDS, Want, retyped

# ops whose kernels take row-major pages in and write row-major pages out (tt-metal's row-major paths)
ROW_MAJOR_THROUGH = frozenset({"typecast", "reshape", "permute", "slice_static", "concat", "repeat"})
# families whose kernels read any operand row-major and write their first operand's page layout
ROW_MAJOR_OPERANDS = frozenset({"binary"})
ROW_MAJOR, TILE = Want("row_major"), Want("tile")


def _row_major_integer(value: SSAValue) -> bool:
    t = value.type
    return isinstance(t, TensorType) and isinstance(t.element_type, IntegerType) and \
        isinstance(t.encoding, ttnn.TTNNLayoutAttr) and not t.encoding.is_tiled and \
        t.encoding.buffer_type != "system_memory"


def _inputs(func: FuncOp) -> list[SSAValue]:
    """The function's integer input arguments held row-major on the device (not KV caches, not parameters)."""
    out = []
    for arg, attrs in zip(func.args, func.arg_attrs.data if func.arg_attrs else [None] * len(func.args)):
        kind = attrs.data.get(ttcore.ArgumentTypeAttr.name) if attrs is not None else None
        if kind is not None and str(kind.data.value) == "input" and _row_major_integer(arg):
            out.append(arg)
    return out


def _reads_row_major(op: TTNNOp, value: SSAValue) -> bool:
    """Whether the op's kernel wants `value` (one of its operands) row-major."""
    wants = WORKAROUNDS[op.ROW.name](op) if op.ROW.name in WORKAROUNDS else {}
    return any(value in values and wants.get(name, Want()).layout == "row_major"
               for name, values in op.operand_groups().items())


def _tilize_before(at: Operation, value: SSAValue, target: TensorType, suffix: str) -> SSAValue:
    convert = ttnn_op("to_tensor_spec", [value], {}, [target], at)
    convert.location = helper_location(at.location, suffix)
    at.parent.insert_op_before(convert, at)
    return convert.results[0]


@dataclass(frozen=True)
class TTNNRowMajorLayoutPropagationPass(ModulePass):
    """Keep row-major integer inputs row-major through the ops that can read them so; tilize where one cannot."""

    name: ClassVar[str] = "ttnn-rm-layout-propagation"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for func in device_functions(module):
            if func.is_declaration:
                continue
            work = deque(self._untilized(arg) for arg in _inputs(func))
            while work:
                value = work.popleft()
                for use in list(value.uses):
                    user = use.operation
                    if isinstance(user, ReturnOp):
                        declared = func.function_type.outputs.data[use.index]
                        if declared != value.type:
                            user.operands[use.index] = _tilize_before(user, value, declared, "return_conversion")
                    elif not isinstance(user, TTNNOp) or user.ROW.name == "to_tensor_spec" or not user.results:
                        continue  # a conversion or an in-place op takes the value as it is
                    elif _reads_row_major(user, value) or (
                            user.ROW.family in ROW_MAJOR_OPERANDS and user.operands[0] is not value):
                        continue
                    elif (user.ROW.name in ROW_MAJOR_THROUGH or user.ROW.family in ROW_MAJOR_OPERANDS) and \
                            len(user.results) == 1:
                        result = user.results[0]
                        Rewriter.replace_value_with_new_type(result, retyped(result.type, ROW_MAJOR))
                        work.append(user.results[0])
                    else:
                        user.operands[use.index] = _tilize_before(user, value, retyped(value.type, TILE),
                                                                  "stop_propagation_conversion")

    @staticmethod
    def _untilized(arg: SSAValue) -> SSAValue:
        """Drop the conversions that only tilize `arg`: their readers read it row-major."""
        for use in list(arg.uses):
            op = use.operation
            if isinstance(op, TTNNOp) and op.ROW.name == "to_tensor_spec" and \
                    op.results[0].type == retyped(arg.type, TILE):
                op.results[0].replace_all_uses_with(arg)
                op.detach()
                op.erase()
        return arg
