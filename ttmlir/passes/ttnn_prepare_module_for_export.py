"""`--ttnn-prepare-module-for-export`: the first forward function as the entry point a Python module exports:
`def forward(input, device)`.

Generated code as an importable module (EmitPy's `target-module`) runs on the caller's device instead of opening
its own: the function is renamed `forward`, takes the device as a second argument (`emitpy.name` "device", the
tuple of inputs "input"), and its `ttnn.get_device` ops read that argument. Const-eval functions get the device
from the EmitPy conversion (a `load_cached` takes tensors only)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FunctionType, ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

from ttmlir.dialects import emitpy, ttnn
from ttmlir.passes import PassFailure
from ttmlir.passes.ttnn_tuplify_tensors import _rename, forward_functions

ENTRY = "forward"


def take_device_argument(func: FuncOp, name: str = "device") -> None:
    """`func` gets the device as its last argument, named `name`; its ttnn.get_device ops read it."""
    block = func.body.block
    device = block.insert_arg(ttnn.DeviceType(), len(block.args))
    for op in [op for op in func.walk() if isinstance(op, ttnn.TTNNOp) and op.ROW.name == "get_device"]:
        op.results[0].replace_all_uses_with(device)
        op.detach()
        op.erase()
    func.function_type = FunctionType.from_lists([a.type for a in block.args], list(func.function_type.outputs.data))
    attrs = list(func.arg_attrs.data) if func.arg_attrs is not None else [DictionaryAttr({}) for _ in block.args[:-1]]
    func.arg_attrs = ArrayAttr([*attrs, DictionaryAttr({emitpy.NAME: StringAttr(name)})])


@dataclass(frozen=True)
class TTNNPrepareModuleForExportPass(ModulePass):
    """The first forward function becomes `forward(input, device)`, its device the caller's."""

    name: ClassVar[str] = "ttnn-prepare-module-for-export"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        forwards = forward_functions(module)
        if not forwards:
            raise PassFailure(module, "the module has no forward function to export")
        func = forwards[0]
        if len(func.body.block.args) != 1:
            raise PassFailure(func, f"@{func.sym_name.data} must take its inputs as one tuple to be exported "
                                    "(run --ttnn-tuplify-tensors with tuplify-input-if-empty first)")
        if func.sym_name.data != ENTRY:
            if any(isinstance(op, FuncOp) and op.sym_name.data == ENTRY for op in module.walk()):
                raise PassFailure(func, f"@{func.sym_name.data} cannot be exported as '{ENTRY}': another function "
                                        "has that name")
            _rename(module, func, ENTRY)
        func.arg_attrs = ArrayAttr([DictionaryAttr({emitpy.NAME: StringAttr("input")})])
        take_device_argument(func)
