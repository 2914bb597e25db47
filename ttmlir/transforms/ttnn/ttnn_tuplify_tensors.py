"""`--ttnn-tuplify-tensors`: a forward (or const-eval) function takes its tensors as one tuple and returns one tuple.

That is the signature generated code exposes (`std::vector<ttnn::Tensor> forward(std::vector<ttnn::Tensor>)`,
`def forward(inputs): ... return [..]`), so a caller holds a model's tensors as one list. A function named
`main` becomes `_main`: `main` is the generated program's own entry point."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, FunctionType, ModuleOp, StringAttr, SymbolRefAttr, TupleType
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Block
from xdsl.passes import ModulePass

from ttmlir.dialects import ttcore
from ttmlir.transforms.ttir.const_eval_hoist_transform import is_const_eval
from ttmlir.transforms.ttcore.ttcore_mark_functions_as_forward import FORWARD_DEVICE, FUNCTION_TYPE
from ttmlir.transforms.ttnn.ttnn_utils import device_functions


def forward_functions(module: ModuleOp) -> list[FuncOp]:
    return [f for f in device_functions(module) if not f.is_declaration and f.attributes.get(FUNCTION_TYPE) == FORWARD_DEVICE]


@dataclass(frozen=True)
class TTNNTuplifyTensorsPass(ModulePass):
    """Forward functions' tensor arguments become one tuple argument and their results one tuple result."""

    name: ClassVar[str] = "ttnn-tuplify-tensors"
    tuplify_input_if_empty: bool = False

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for func in forward_functions(module):
            if func.sym_name.data == "main":
                _rename(module, func, "_main")
            packed = self._tuplify(func, self.tuplify_input_if_empty)
            _repack_calls(module, func, packed)
        for func in device_functions(module):  # const-eval functions take and give lists too (load_cached packs)
            if is_const_eval(func):
                self._tuplify(func, False)

    @staticmethod
    def _tuplify(func: FuncOp, if_empty: bool) -> bool:
        """Rewrite the function's signature; whether its inputs became one tuple."""
        block = func.body.block
        inputs = list(func.function_type.inputs.data)
        packed_inputs = bool(inputs) or if_empty
        if packed_inputs:
            packed = TupleType(ArrayAttr(tuple(inputs)))
            new_arg = block.insert_arg(packed, 0)
            first = block.first_op
            for i, arg in enumerate(block.args[1:]):
                member = ttcore.GetTupleElementOp(operands=[new_arg], result_types=[arg.type],
                                                  properties={"index": ttcore.IntegerAttr(i, 32)})
                block.insert_op_before(member, first)
                arg.replace_all_uses_with(member.result)
            for arg in list(block.args[1:]):
                block.erase_arg(arg)
            inputs, func.arg_attrs = [packed], None
        ret = block.last_op
        assert isinstance(ret, ReturnOp)
        results = TupleType(ArrayAttr(tuple(func.function_type.outputs.data)))
        packed_results = ttcore.TupleOp(operands=[list(ret.arguments)], result_types=[results])
        block.insert_op_before(packed_results, ret)
        ret.operands = [packed_results.result]
        func.function_type = FunctionType.from_lists(inputs, [results])
        func.res_attrs = None
        return packed_inputs


def _repack_calls(module: ModuleOp, func: FuncOp, packed_inputs: bool) -> None:
    """A forward function calling another passes it one tuple and takes its results out of the one it returns."""
    name = func.sym_name.data
    for call in [op for op in module.walk() if isinstance(op, CallOp) and op.callee.root_reference.data == name]:
        block, ops, args = call.parent_block(), [], list(call.arguments)
        if packed_inputs:
            ops.append(ttcore.TupleOp(operands=[args], result_types=[func.function_type.inputs.data[0]]))
            args = [ops[-1].result]
        new = CallOp(call.callee, args, list(func.function_type.outputs.data))
        members = [ttcore.GetTupleElementOp(operands=[new.res[0]], result_types=[r.type],
                                            properties={"index": ttcore.IntegerAttr(i, 32)})
                   for i, r in enumerate(call.results)]
        for op in (*ops, new, *members):
            block.insert_op_before(op, call)
        for old, member in zip(call.results, members):
            old.replace_all_uses_with(member.result)
        block.erase_op(call)


def _rename(module: ModuleOp, func: FuncOp, new: str) -> None:
    old = func.sym_name.data
    func.sym_name = StringAttr(new)
    for op in module.walk():
        if isinstance(op, CallOp) and op.callee.root_reference.data == old:
            op.callee = SymbolRefAttr(new)
