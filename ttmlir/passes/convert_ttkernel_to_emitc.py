"""`--convert-ttkernel-to-emitc`: every ttkernel op of a kernel function becomes the C++ call it stands for
(`emitc.call_opaque`), so `--ttkernel-to-cpp` and the `.ttm` writer can print the kernel.

CB handles become `uint32_t` ports; `get_compile_time_arg_val(N)` a literal (tt-metal wants a constant
expression there); runtime arguments `get_arg_val<uint32_t>(i)`; `pack_tile` with `out_of_order`
`pack_tile<true>`. Each kernel includes its thread's API header.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.dialects.emitc import EmitC_CallOpaqueOp, EmitC_OpaqueType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import emitc, ttkernel
from ttmlir.target.cpp import is_kernel

PORT = EmitC_OpaqueType(StringAttr("uint32_t"))
HEADERS = {"compute": "compute_kernel_api/common.h", "noc": "dataflow_api.h", "ethernet": "dataflow_api.h"}


def _c_type(t: Attribute) -> Attribute:
    return PORT if isinstance(t, ttkernel.CBType) else t


def _callee(op: ttkernel.TTKernelOp) -> str:
    mnemonic = op.name[len("ttkernel."):]
    if mnemonic in ("get_arg_val", "get_common_arg_val"):
        return f"{mnemonic}<uint32_t>"
    if mnemonic == "pack_tile" and op.properties["out_of_order"].value.data:
        return "pack_tile<true>"
    return mnemonic


@dataclass(frozen=True)
class ConvertTTKernelToEmitCPass(ModulePass):
    """Lower the ttkernel ops of kernel functions to emitc calls."""

    name: ClassVar[str] = "convert-ttkernel-to-emitc"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in op.walk() if isinstance(f, FuncOp) and is_kernel(f)]:
            rewriter = Rewriter()
            thread = func.attributes["ttkernel.thread"].data.value
            rewriter.insert_op(emitc.IncludeOp.create(properties={"include": StringAttr(HEADERS[thread])}),
                               InsertPoint.at_start(func.body.block))
            for kernel_op in [o for o in func.walk() if isinstance(o, ttkernel.TTKernelOp)]:
                result_types = [_c_type(r.type) for r in kernel_op.results]
                if kernel_op.name == "ttkernel.get_compile_time_arg_val":
                    index = kernel_op.properties["arg_index"].value.data
                    new = emitc.LiteralOp.create(properties={"value": StringAttr(f"get_compile_time_arg_val({index})")},
                                                 result_types=result_types)
                else:
                    new = EmitC_CallOpaqueOp(_callee(kernel_op), list(kernel_op.operands), result_types)
                rewriter.replace_op(kernel_op, new)
