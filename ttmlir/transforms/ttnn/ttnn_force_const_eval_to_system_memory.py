"""`--ttnn-force-const-eval-to-system-memory`: a forward function's argument read only by `ttcore.load_cached`
arrives in host memory (row-major), and each const-eval function taking it moves it to the device layout it
had (a `ttnn.to_tensor_spec`, broken down by --ttnn-decompose-layouts) — unless its one user already takes it to
the host (a CPU-hoisted const-eval function): weights then never occupy DRAM beside their prepared copies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import FunctionType, ModuleOp, StringAttr, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttcore, ttnn
from ttmlir.transforms.ttir.const_eval_hoist_transform import is_const_eval
from ttmlir.transforms.ttcore.ttcore_mark_functions_as_forward import FORWARD_DEVICE, FUNCTION_TYPE
from ttmlir.transforms.ttnn.ttnn_utils import HOST, device_functions, on_host, ttnn_op

def host_type(t: TensorType) -> TensorType:
    layout: ttnn.TTNNLayoutAttr = t.encoding
    shape = tuple(t.get_shape())
    return TensorType(t.element_type, shape, ttnn.layout_for(shape, t.element_type, HOST, False, layout.data_type))


def _retype(func: FuncOp, arg: BlockArgument, new: TensorType) -> BlockArgument:
    arg = Rewriter.replace_value_with_new_type(arg, new)
    inputs = list(func.function_type.inputs.data)
    inputs[arg.index] = new
    func.function_type = FunctionType.from_lists(inputs, func.function_type.outputs.data)
    return arg


def _already_going_to_host(arg: BlockArgument) -> bool:
    uses = list(arg.uses)
    return (len(uses) == 1 and uses[0].operation.name == "ttnn.to_tensor_spec"
            and on_host(uses[0].operation.results[0].type))


def _move_const_eval_argument(func: FuncOp, index: int, new: TensorType) -> None:
    arg = func.body.block.args[index]
    if arg.type == new:
        return
    if not _already_going_to_host(arg):
        block = func.body.block
        after = next((op for op in block.ops if op.name == "ttnn.get_device"), None)
        move = ttnn_op("to_tensor_spec", [arg], {}, [arg.type], func)
        if after is not None:
            block.insert_op_after(move, after)
        else:
            block.insert_op_before(move, block.first_op)
        arg.replace_uses_with_if(move.results[0], lambda use: use.operation is not move)
    arg = _retype(func, arg, new)
    for use in list(arg.uses):  # a move to the host it is now already in goes away
        if use.operation.name == "ttnn.to_tensor_spec" and use.operation.results[0].type == new:
            use.operation.results[0].replace_all_uses_with(arg)
            use.operation.detach()
            use.operation.erase()


@dataclass(frozen=True)
class TTNNConstEvalInputsToSystemMemoryPass(ModulePass):
    """Move the const-eval-only arguments of forward functions to host memory."""

    name: ClassVar[str] = "ttnn-force-const-eval-to-system-memory"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        functions = {f.sym_name.data: f for f in device_functions(module)}
        for func in functions.values():
            if func.attributes.get(FUNCTION_TYPE) != FORWARD_DEVICE or not func.body.blocks:
                continue
            for arg in func.body.block.args:
                uses = list(arg.uses)
                if (not isinstance(arg.type, TensorType) or on_host(arg.type) or not uses
                        or not all(isinstance(u.operation, ttcore.LoadCachedOp) for u in uses)):
                    continue
                new = host_type(arg.type)
                for use in list(_retype(func, arg, new).uses):
                    callee = functions.get(use.operation.callee.root_reference.data)
                    if callee is not None and is_const_eval(callee):
                        _move_const_eval_argument(callee, use.index, new)

