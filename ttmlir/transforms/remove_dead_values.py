"""`--remove-dead-values`, MLIR's pass: what nothing reads goes.

Ops without side effects whose results nobody reads are erased (xDSL's dead-code elimination decides which);
a private function's arguments it never reads are dropped with the operands its calls pass for them, and results
no call reads are dropped from its returns and its calls; then the ops that only fed those go too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, FunctionType, ModuleOp
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.transforms.dead_code_elimination import dce


def _calls(module: ModuleOp, func: FuncOp) -> list[CallOp] | None:
    """Every call of `func`, or None when something else refers to it (its signature must then stay)."""
    calls, name = [], func.sym_name.data
    for op in module.walk():
        if isinstance(op, CallOp) and op.callee.string_value() == name:
            calls.append(op)
        elif op is not func and name in str(op.attributes) + str(op.properties):
            return None
    return calls


def _narrow(func: FuncOp, calls: list[CallOp]) -> bool:
    """Drops `func`'s unread arguments and unread results; whether anything changed."""
    block = func.body.block
    returns = [op for op in func.walk() if isinstance(op, ReturnOp)]
    keep_args = [i for i, arg in enumerate(block.args) if arg.uses]
    keep_results = [i for i in range(len(func.function_type.outputs.data)) if any(c.results[i].uses for c in calls)]
    if len(keep_args) == len(block.args) and len(keep_results) == len(func.function_type.outputs.data):
        return False
    for i in reversed(range(len(block.args))):
        if i not in keep_args:
            block.erase_arg(block.args[i])
    for ret in returns:
        Rewriter.replace_op(ret, ReturnOp(*[ret.operands[i] for i in keep_results]))
    inputs, outputs = func.function_type.inputs.data, func.function_type.outputs.data
    func.function_type = FunctionType.from_lists([inputs[i] for i in keep_args], [outputs[i] for i in keep_results])
    if func.arg_attrs is not None:
        func.arg_attrs = ArrayAttr([func.arg_attrs.data[i] for i in keep_args])
    if func.res_attrs is not None:
        func.res_attrs = ArrayAttr([func.res_attrs.data[i] for i in keep_results])
    for call in calls:
        new = CallOp(call.callee, [call.operands[i] for i in keep_args], [outputs[i] for i in keep_results])
        new.attributes.update(call.attributes)
        Rewriter.replace_op(call, new, [new.results[keep_results.index(i)] if i in keep_results else None
                                        for i in range(len(call.results))])
    return True


@dataclass(frozen=True)
class RemoveDeadValuesPass(ModulePass):
    """Erase unread values: dead ops, and unread arguments and results of private functions."""

    name: ClassVar[str] = "remove-dead-values"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        changed = True
        while changed:
            dce(module)
            changed = False
            for func in [op for op in module.walk() if isinstance(op, FuncOp) and op.sym_visibility is not None
                         and op.sym_visibility.data == "private" and op.body.blocks]:
                calls = _calls(module, func)
                if calls is not None and _narrow(func, calls):
                    changed = True
