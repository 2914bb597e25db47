"""`--ttnn-prepare-module-for-export`: the first forward function as the entry point a Python module exports:
`def forward(input, device)`.

Generated code as an importable module (EmitPy's `target-module`) runs on the caller's device instead of opening
its own: the function is renamed `forward`, takes the device as a second argument (`emitpy.name` "device", the
tuple of inputs "input"), and its `ttnn.get_device` ops read that argument. Const-eval functions get the device
from the EmitPy conversion (a `load_cached` takes tensors only).

The caller hands its tensors over as they are on the host, row-major: each input the function wants on the device
is laid out there (`ttnn.to_layout` on the host) and moved (`ttnn.to_device`) first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FunctionType, ModuleOp, StringAttr, TensorType, TupleType
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import emitpy, ttcore, ttnn
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttnn.ttnn_utils import HOST, on_host, ttnn_op
from ttmlir.transforms.ttnn.ttnn_tuplify_tensors import _rename, forward_functions

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
        _inputs_from_host(func)


def _on_host(t: TensorType, tiled: bool) -> TensorType:
    layout, shape = t.encoding, tuple(t.get_shape())
    return TensorType(t.element_type, shape, ttnn.layout_for(shape, t.element_type, HOST, tiled, layout.data_type))


def _inputs_from_host(func: FuncOp) -> None:
    """Each device input of the tuple arrives host row-major, laid out and moved to the device where it is read."""
    block = func.body.block
    inputs, device = block.args
    members = list(inputs.type.types.data)
    for member in [op for op in block.ops if isinstance(op, ttcore.GetTupleElementOp) and op.operand is inputs]:
        wanted = member.result.type
        if not isinstance(getattr(wanted, "encoding", None), ttnn.TTNNLayoutAttr) or on_host(wanted):
            continue
        host = Rewriter.replace_value_with_new_type(member.result, _on_host(wanted, False))
        members[member.index.value.data] = host.type
        uses = [(use.operation, use.index) for use in host.uses]
        staged = [ttnn_op("to_layout", [host], {}, [_on_host(wanted, True)], member)] if wanted.encoding.is_tiled \
            else []
        staged.append(ttnn_op("to_device", [staged[0].results[0] if staged else host, device], {}, [wanted], member))
        block.insert_ops_after(staged, member)
        for user, index in uses:
            user.operands[index] = staged[-1].results[0]
    Rewriter.replace_value_with_new_type(inputs, TupleType(ArrayAttr(tuple(members))))
    func.function_type = FunctionType.from_lists([a.type for a in block.args], list(func.function_type.outputs.data))
