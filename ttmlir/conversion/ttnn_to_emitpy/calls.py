"""The Python values of converted TTNN: its types, and calls of the ttnn API (shared by the op and trace patterns)."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, StringAttr, TensorType, TupleType
from xdsl.ir import Attribute, Operation, SSAValue

from ttmlir.conversion.ttnn_api import host_type
from ttmlir.dialects import emitpy, trace, ttcore, ttnn

TENSOR = emitpy.opaque("ttnn.Tensor")
TENSORS = emitpy.opaque("[ttnn.Tensor]")
DEVICE = emitpy.opaque("ttnn.Device")
SEMAPHORE = emitpy.opaque("ttnn.GlobalSemaphore")
CREATE_LIST = "utils.create_list"  # a Python list of the values passed (generated code's `utils` module)
CONST_EVALED = "emitpy.const_evaled"  # a const-eval function's call, until the wrapper's guard takes it in
# on a CPU-hoisted function: the mesh it runs over; Python defines its body as a nested `<name>_impl` that
# `utils.execute_cpu_hoisted_function` runs on the host tensors
CPU_HOISTED = "emitpy.cpu_hoisted_mesh"


def convert_type(t: Attribute, at: Operation) -> Attribute:
    return host_type(t, at, {TensorType: TENSOR, TupleType: TENSORS, ttnn.DeviceType: DEVICE,
                             trace.GlobalSemaphoreType: SEMAPHORE, ttcore.DictType: emitpy.DictType()}, "Python")


def call(callee: str, operands: list[SSAValue], result_types: list[Attribute], args=None,
         keywords: list[str] | None = None) -> emitpy.CallOpaqueOp:
    props: dict[str, Attribute] = {"callee": StringAttr(callee)}
    if args is not None:
        props["args"] = ArrayAttr(args)
    if keywords is not None and any(keywords):
        props["keyword_args"] = ArrayAttr([StringAttr(k) for k in keywords])
    return emitpy.CallOpaqueOp.create(operands=list(operands), result_types=list(result_types), properties=props)
