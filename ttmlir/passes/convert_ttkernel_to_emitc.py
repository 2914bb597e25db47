"""`--convert-ttkernel-to-emitc`: every ttkernel op of a kernel function becomes the C++ call it stands for
(`emitc.call_opaque`), so `--ttkernel-to-cpp` and the `.ttm` writer can print the kernel.

CB handles become `uint32_t` ports; `get_compile_time_arg_val(N)` a literal (tt-metal wants a constant
expression there); runtime arguments `get_arg_val<uint32_t>(i)`; `pack_tile` with `out_of_order`
`pack_tile<true>`; a NoC transfer naming a bank or core takes its address from `get_noc_addr_from_bank_id<true>`
or `get_noc_addr`; `my_logical_x_`/`my_logical_y_` are tt-metal's globals. Each kernel includes its thread's
API header.
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
NOC_ADDR = EmitC_OpaqueType(StringAttr("uint64_t"))
HEADERS = {"compute": "compute_kernel_api/common.h", "noc": "dataflow_api.h", "ethernet": "dataflow_api.h"}


def _c_type(t: Attribute) -> Attribute:
    return PORT if isinstance(t, ttkernel.CBType) else NOC_ADDR if isinstance(t, ttkernel.NocAddrType) else t


def _noc_address(op, address) -> EmitC_CallOpaqueOp:
    """The NoC address of a transfer's far side: a DRAM bank's page or a core's L1."""
    if op.bank_id:
        return EmitC_CallOpaqueOp("get_noc_addr_from_bank_id<true>", [op.bank_id[0], address], [NOC_ADDR])
    return EmitC_CallOpaqueOp("get_noc_addr", [*op.core_xy, address], [NOC_ADDR])


def _lowered(op) -> list:
    """The emitc ops of one ttkernel op; the last one's results replace the op's."""
    result_types = [_c_type(r.type) for r in op.results]
    if isinstance(op, (ttkernel.MyLogicalXOp, ttkernel.MyLogicalYOp)):
        return [emitc.LiteralOp.create(properties={"value": StringAttr(op.name[len("ttkernel."):])},
                                       result_types=result_types)]
    if isinstance(op, ttkernel.NocAsyncReadOp):
        address = _noc_address(op, op.src_address)
        return [address, EmitC_CallOpaqueOp("noc_async_read", [address.res[0], op.dst_local, op.size, *op.noc], [])]
    if isinstance(op, ttkernel.NocAsyncWriteOp):
        address = _noc_address(op, op.dst_address)
        return [address, EmitC_CallOpaqueOp("noc_async_write", [op.src_local, address.res[0], op.size, *op.noc], [])]
    if op.name == "ttkernel.get_compile_time_arg_val":
        index = op.properties["arg_index"].value.data
        return [emitc.LiteralOp.create(properties={"value": StringAttr(f"get_compile_time_arg_val({index})")},
                                       result_types=result_types)]
    return [EmitC_CallOpaqueOp(_callee(op), list(op.operands), result_types)]


def _callee(op: ttkernel.TTKernelOp) -> str:
    mnemonic = op.name[len("ttkernel."):]
    if mnemonic in ("get_arg_val", "get_common_arg_val"):
        return f"{mnemonic}<uint32_t>"
    if mnemonic == "get_noc_addr_from_bank_id":  # DRAM banks
        return f"{mnemonic}<true>"
    if mnemonic in ("reduce_init", "reduce_tile"):  # tt-metal takes the operator and the dims as template arguments
        kind = op.properties["reduce_type"].data.value.removeprefix("reduce_").upper()
        dim = op.properties["reduce_dim"].data.value.removeprefix("reduce_dim_").upper()
        return f"{mnemonic}<PoolType::{kind}, ReduceDim::REDUCE_{dim}>"
    if mnemonic in ("unary_bcast_init", "unary_bcast"):
        return f"{mnemonic}<BroadcastType::{op.properties['bcast_type'].data.value.upper()}>"
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
            for kernel_op in [o for o in func.walk() if o.name.startswith("ttkernel.")]:
                new = _lowered(kernel_op)
                rewriter.replace_op(kernel_op, new, new[-1].results)
