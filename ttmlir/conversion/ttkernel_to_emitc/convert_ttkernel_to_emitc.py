"""`--convert-ttkernel-to-emitc`: every ttkernel op of a kernel function becomes the C++ call it stands for
(`emitc.call_opaque`), so `--ttkernel-to-cpp` and the `.ttm` writer can print the kernel.

CB handles become `uint32_t` ports; `get_compile_time_arg_val(N)` a literal (tt-metal wants a constant
expression there); runtime arguments `get_arg_val<uint32_t>(i)`; `pack_tile` with `out_of_order`
`pack_tile<true>`; NoC transfers, multicasts and barriers are calls on tt-metal's `Noc` objects
(`noc0.async_read(unicast_ep, ...)`, the NoC named by the op's constant NoC operand, or `Noc(v)` for a NoC the
kernel computes); `mm_init` is the engines' start-up (`compute_kernel_hw_startup`) then `matmul_init`; constants
become `emitc.constant`;
`my_logical_x_`/`my_logical_y_` are tt-metal's globals; index values are `size_t`s (`index_arith.py`). Each
kernel includes its thread's API header, the Noc object API's when it uses it, and the header of a call that needs
its own (CALL_HEADERS), sorted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ArrayAttr, Float32Type, IndexType, IntegerType, ModuleOp, StringAttr
from xdsl.dialects.emitc import (EmitC_CallOpaqueOp, EmitC_LValueType, EmitC_OpaqueAttr, EmitC_OpaqueType,
                                 EmitC_PointerType)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import emitc, ttkernel
from ttmlir.errors import PassFailure
from ttmlir.conversion.ttkernel_to_emitc.index_arith import lower_index_values
from ttmlir.target.cpp import c_type, is_kernel

PORT = EmitC_OpaqueType(StringAttr("uint32_t"))
NOC_ADDR = EmitC_OpaqueType(StringAttr("uint64_t"))
CB_PRINTER = EmitC_OpaqueType(StringAttr("ttmlir::CBPrinter"))
HEADERS = {"compute": "api/compute/common.h", "noc": "api/dataflow/dataflow_api.h",
           "ethernet": "api/dataflow/dataflow_api.h"}
# CB calls that are methods of tt-metal's CircularBuffer object (the compute API's other calls take the CB's id)
CB_METHODS = {"cb_reserve_back": "reserve_back", "cb_push_back": "push_back", "cb_wait_front": "wait_front",
              "cb_pop_front": "pop_front", "get_write_ptr": "get_write_ptr", "get_read_ptr": "get_read_ptr",
              "get_tile_size": "get_tile_size"}
# the CB's pointers, written at each use as upstream writes them (`cb.get_write_ptr()`) when that reads the same value:
# a pointer moves at the CB's push and pop
CB_POINTERS = ("get_write_ptr", "get_read_ptr")
CB_MOVES = ("ttkernel.cb_push_back", "ttkernel.cb_pop_front")
CB_HEADER = "api/dataflow/circular_buffer.h"
NOC_HEADERS = ("api/core_local_mem.h", "api/dataflow/endpoints.h", "api/dataflow/noc.h")  # the Noc object API
CALL_HEADERS = {"bfloat16_greater": "api/numeric/bfloat16.h", "float32_greater": "api/numeric/float32.h",
                "dprint": "api/debug/dprint.h",
                **dict.fromkeys(("typecast_tile", "typecast_tile_init"), "api/compute/eltwise_unary/typecast.h")}
C_TYPES = {ttkernel.TensorAccessorType: EmitC_OpaqueType(StringAttr("TensorAccessor")),
           ttkernel.TensorAccessorArgsType: EmitC_OpaqueType(StringAttr("auto")), ttkernel.CBType: PORT,
           ttkernel.LocalSemaphoreType: PORT, ttkernel.L1AddrType: PORT, ttkernel.NocAddrType: NOC_ADDR}
# the endpoint object a transfer names its far side with, and the fields that name it
ENDPOINTS = {"core": ("UnicastEndpoint", "unicast_ep",
                      "{{.noc_x = {}, .noc_y = {}, .addr = static_cast<uint32_t>({})}"),
             "bank": ("AllocatorBank<AllocatorBankType::DRAM>", "dram_ep",
                      "{{.bank_id = static_cast<uint32_t>({}), .addr = static_cast<uint32_t>({})}"),
             "mcast": ("MulticastEndpoint", "mcast_ep",
                       "noc_traits_t<MulticastEndpoint>::dst_args_mcast_type{{.noc_x_start = {}, .noc_y_start = {}, "
                       ".noc_x_end = {}, .noc_y_end = {}, .addr = static_cast<uint32_t>({})}")}
# arith ops emitc has no lowering for: the C++ call each one is
ARITH_CALLS = {arith.MinSIOp: "std::min<int32_t>", arith.MaxSIOp: "std::max<int32_t>",
               arith.MinUIOp: "std::min<size_t>", arith.MaxUIOp: "std::max<size_t>"}
# calls writing a tile into a CB, templated on the CB's data format (upstream's experimental padding LLKs)
CB_FORMAT_TEMPLATED = ("ttkernel.experimental.fill_arange_tile", "ttkernel.experimental.write_row_mask_tile",
                       "ttkernel.experimental.write_col_mask_tile")
RENAMED = {"mm_init_short": "matmul_init", "mm_block_init_short": "matmul_block_init"}  # tt-metal's current names
NOC_BARRIERS = {"noc_async_read_barrier": "async_read_barrier", "noc_async_write_barrier": "async_write_barrier",
                "noc_async_full_barrier": "async_full_barrier", "noc_async_atomic_barrier": "async_atomic_barrier"}
TRID_BARRIERS = {"noc_async_read_barrier_with_trid": "async_read_barrier",
                 "noc_async_write_barrier_with_trid": "async_write_barrier"}
# tt-metal's DataFormat for each ttcore data type
DATA_FORMATS = {"f32": "Float32", "f16": "Float16", "bf16": "Float16_b", "bfp_f8": "Bfp8", "bfp_bf8": "Bfp8_b",
                "bfp_f4": "Bfp4", "bfp_bf4": "Bfp4_b", "bfp_f2": "Bfp2", "bfp_bf2": "Bfp2_b", "u32": "UInt32",
                "u16": "UInt16", "u8": "UInt8", "si32": "Int32"}
TRID = "NocOptVals{{.trid = {}}"
ONE_PACKET = "NocOptions::DEFAULT, NOC_MAX_BURST_SIZE"  # the options of a transfer of at most one NoC packet
# a multicast's NocOptions: the rectangle includes the sender (loopback), or the write is one packet
MULTICAST_OPTIONS = {"noc_async_write_multicast": "", "noc_async_write_multicast_one_packet": f"<{ONE_PACKET}>",
                     "noc_async_write_multicast_loopback_src": "<NocOptions::MCAST_INCL_SRC>"}


def _c_type(t: Attribute) -> Attribute:
    if isinstance(t, ttkernel.L1AddrPtrType):  # words of its width, read afresh each time (a semaphore may change)
        return EmitC_PointerType(EmitC_OpaqueType(StringAttr(f"volatile tt_l1_ptr uint{t.width.data}_t")))
    return C_TYPES.get(type(t), t)


class _KernelLowering:
    """One kernel function's ttkernel ops as emitc. NoC transfers use tt-metal's `Noc` object API, as upstream
    emits them: each NoC and endpoint object is declared once at the top of the kernel (`Noc noc0(0);`)."""

    def __init__(self, func: FuncOp):
        self.func = func
        self.declared: list[str] = []
        self.thread = func.attributes["ttkernel.thread"].data.value
        self.headers: set[str] = {HEADERS[self.thread]}
        self.cb_names: dict = {}  # CB value -> its CircularBuffer object's name
        self.cb_formats: dict = {}  # CB value -> its tiles' DataFormat
        self.cb_declared: set = set()  # (block, name) of the objects declared
        self.counters: dict[str, int] = {}

    def declare(self, text: str) -> None:
        if text not in self.declared:
            self.declared.append(text)

    def noc(self, op) -> tuple[str, list]:
        return self.noc_of(op, op.noc if isinstance(op, (ttkernel.NocAsyncReadOp, ttkernel.NocAsyncWriteOp,
                                                         ttkernel.MulticastWriteOp)) else op.operands)

    def noc_of(self, op, nocs) -> tuple[str, list]:
        """The `Noc` object a NoC op uses and the operands its text takes: `noc0`, declared once, for a constant NoC
        operand; a temporary `Noc({})` of the value for a NoC known only when the kernel runs."""
        if not nocs:
            raise PassFailure(op, "NoC operand is required for TTKernel-to-EmitC conversion")
        self.headers.update(NOC_HEADERS)
        index = _constant(nocs[0])
        if index is None:
            return "Noc({})", [nocs[0]]
        self.declare(f"Noc noc{index}({index});")
        return f"noc{index}", []

    def cb_object(self, op, cb) -> str:
        """The CircularBuffer object of CB value `cb`, declared once just after the value is defined (so it is in
        scope wherever the value is): `cb_ctarg_N` for compile-time argument N, `cb_arg_K` for the K-th CB among
        the runtime arguments."""
        name = self.cb_names.get(cb)
        if name is None:
            raise PassFailure(op, "a CB operand must be a kernel argument (get_compile_time_arg_val, get_arg_val or "
                                  "get_common_arg_val)")
        owner = cb.owner
        if (owner.parent_block(), name) not in self.cb_declared:
            self.cb_declared.add((owner.parent_block(), name))
            self.headers.add(CB_HEADER)
            Rewriter.insert_op(emitc.VerbatimOp.create(operands=[cb], properties={
                "value": StringAttr(f"CircularBuffer {name}({{}});")}), InsertPoint.after(owner))
        return name

    def name_cb(self, op, lowered) -> None:
        """Name the CB a kernel-argument op gives (its lowering is `lowered`) for its CircularBuffer object."""
        if not (op.results and isinstance(op.results[0].type, ttkernel.CBType)):
            return
        if op.name == "ttkernel.get_compile_time_arg_val":
            name = f"cb_ctarg_{op.properties['arg_index'].value.data}"
        else:
            name = f"cb_arg_{sum(n.startswith('cb_arg_') for n in self.cb_names.values())}"
        self.cb_names[lowered.results[0]] = name
        element = op.results[0].type.element
        if hasattr(element, "dtype"):  # a CB of tiles
            self.cb_formats[lowered.results[0]] = DATA_FORMATS[element.dtype]

    def fresh(self, prefix: str) -> str:
        """A new C++ variable name in this kernel: `page_id_0`, `page_id_1`, ..."""
        self.counters[prefix] = self.counters.get(prefix, -1) + 1
        return f"{prefix}{self.counters[prefix]}"

    def endpoint(self, kind: str) -> tuple[str, str]:
        type_name, name, fields = ENDPOINTS[kind]
        self.declare(f"{type_name} {name};")
        return name, fields

    @staticmethod
    def accessor_offset(op: ttkernel.TensorAccessorArgsOp, kind: str) -> str:
        """An accessor's compile-time (`cta`) or common runtime (`crta`) args offset as a C++ constant expression:
        its expression if it has one, else just after the previous accessor's, else its constant."""
        expr = op.properties.get(f"{kind}_expr")
        if expr is not None:
            return expr.data
        if op.prev_args is not None:  # already lowered: the previous accessor's variable
            method = "next_compile_time_args_offset" if kind == "cta" else "next_common_runtime_args_offset"
            return f"{op.prev_args.owner.value.data}.{method}()"
        return str(_constant(op.cta_base if kind == "cta" else op.crta_base))

    def lowered(self, op) -> list:
        """The emitc ops of one ttkernel op; the last one's results replace the op's."""
        result_types = [_c_type(r.type) for r in op.results]
        mnemonic = op.name[len("ttkernel."):]
        if mnemonic == "pack_reconfig_l1_acc":  # tt-metal's LLK call, run by the pack thread only
            return [emitc.VerbatimOp.create(operands=list(op.operands), properties={"value": StringAttr(
                        "PACK((llk_pack_reconfig_l1_acc({})));")})]
        if isinstance(op, (ttkernel.MyLogicalXOp, ttkernel.MyLogicalYOp)):
            return [emitc.LiteralOp.create(properties={"value": StringAttr(mnemonic)}, result_types=result_types)]
        if isinstance(op, (ttkernel.NocAsyncReadOp, ttkernel.NocAsyncWriteOp)):
            noc, dynamic = self.noc(op)
            name, fields = self.endpoint("core" if op.core_xy else "bank")
            far = [*op.core_xy, *op.bank_id]
            if isinstance(op, ttkernel.NocAsyncReadOp):
                text = f"{noc}.async_read({name}, CoreLocalMem<uint32_t>({{}}), {{}}, {fields}, {{{{}});"
                return [emitc.VerbatimOp.create(operands=[*dynamic, op.dst_local, op.size, *far, op.src_address],
                                                properties={"value": StringAttr(text)})]
            text = f"{noc}.async_write(CoreLocalMem<uint32_t>({{}}), {name}, {{}}, {{{{}} , {fields});"
            return [emitc.VerbatimOp.create(operands=[*dynamic, op.src_local, op.size, *far, op.dst_address],
                                            properties={"value": StringAttr(text)})]
        if isinstance(op, ttkernel.MulticastWriteOp):
            noc, dynamic = self.noc(op)
            name, fields = self.endpoint("mcast")
            linked = "true" if op.linked is not None and op.linked.value.data else "false"
            text = (f"{noc}.async_write_multicast{MULTICAST_OPTIONS[mnemonic]}(CoreLocalMem<uint32_t>({{}}), {name}, "
                    f"{{}}, {{}}, {{{{}} , {fields}, {linked});")
            return [emitc.VerbatimOp.create(operands=[*dynamic, op.src_local, op.size, op.num_dests, *op.start_xy,
                                                      *op.end_xy, op.dst_local], properties={"value": StringAttr(text)})]
        if isinstance(op, ttkernel.TensorAccessorArgsOp):  # where its compile-time and common runtime args start
            offsets = [self.accessor_offset(op, kind) for kind in ("cta", "crta")]
            name = self.fresh("tensor_accessor_args_")
            return [emitc.VerbatimOp.create(properties={"value": StringAttr(
                        f"constexpr auto {name} = TensorAccessorArgs<{', '.join(offsets)}>();")}),
                    emitc.LiteralOp.create(properties={"value": StringAttr(name)}, result_types=result_types)]
        if mnemonic in ("noc_async_read_tile", "noc_async_write_tile"):  # a page by id through a TensorAccessor
            (noc, dynamic), page_id = self.noc_of(op, op.operands[3:]), self.fresh("page_id_")
            page, accessor, local = op.operands[:3]
            text = (f"{noc}.async_read({{}}, CoreLocalMem<uint32_t>({{}}), {{}}.get_aligned_page_size(), "
                    f"{{{{.page_id = {page_id}}}, {{{{}});" if mnemonic == "noc_async_read_tile" else
                    f"{noc}.async_write(CoreLocalMem<uint32_t>({{}}), {{}}, {{}}.get_aligned_page_size(), {{{{}} , "
                    f"{{{{.page_id = {page_id}}});")
            operands = [accessor, local, accessor] if mnemonic == "noc_async_read_tile" else [local, accessor, accessor]
            return [emitc.VerbatimOp.create(operands=[page], properties={"value": StringAttr(
                        f"const uint32_t {page_id} = static_cast<uint32_t>({{}});")}),
                    emitc.VerbatimOp.create(operands=[*dynamic, *operands], properties={"value": StringAttr(text)})]
        if isinstance(op, ttkernel.BitcastOp):  # a ui32 argument slot read as its scalar type
            if isinstance(op.result.type, (IntegerType, IndexType)):  # integers convert as they are
                return [emitc.CastOp.create(operands=[op.input], result_types=result_types)]
            if op.result.type != Float32Type():
                raise PassFailure(op, f"a kernel argument is read as an integer or f32, not {op.result.type}")
            name = self.fresh("bitcast_")  # the float's bits copied out of the word (no aliasing through pointers)
            return [emitc.VerbatimOp.create(operands=[op.input], properties={"value": StringAttr(
                        f"uint32_t {name}_src = {{}}; float {name}; __builtin_memcpy(&{name}, &{name}_src, "
                        f"sizeof({name}));")}),
                    emitc.LiteralOp.create(properties={"value": StringAttr(name)}, result_types=result_types)]
        if mnemonic in ("load_from_l1", "store_to_l1"):  # `ptr[offset]`, the word converted to and from its type
            pointer = op.operands[0] if mnemonic == "load_from_l1" else op.operands[1]
            word = _c_type(pointer.type).pointee_type
            slot = emitc.SubscriptOp.create(operands=[pointer, op.operands[-1]],
                                            result_types=[EmitC_LValueType(word)])
            if mnemonic == "load_from_l1":
                loaded = emitc.LoadOp.create(operands=[slot.result], result_types=[word])
                return [slot, loaded, emitc.CastOp.create(operands=[loaded.result], result_types=result_types)]
            value = emitc.CastOp.create(operands=[op.operands[0]], result_types=[word])
            return [slot, value, emitc.AssignOp.create(operands=[slot.result, value.dest])]
        if mnemonic == "noc_inline_dw_write":  # the word into the far core's L1 at (x, y, addr), through its endpoint
            noc, dynamic = self.noc_of(op, op.noc)
            if dynamic:
                raise PassFailure(op, "dynamic NoC ID is not supported for inline write")
            name, fields = self.endpoint("core")
            text = f"{noc}.inline_dw_write<NocOptions::INLINE_L1>({name}, {{}}, {fields}, {{}});"
            return [emitc.VerbatimOp.create(operands=[op.val, op.dst_noc_x, op.dst_noc_y, op.dst_address,
                                                      op.byte_enable], properties={"value": StringAttr(text)})]
        if mnemonic == "get_noc_addr":  # the unicast endpoint's NoC address of (x, y, addr), a variable of its own
            noc, dynamic = self.noc_of(op, op.operands[3:])
            name, _ = self.endpoint("core")
            variable = self.fresh("noc_addr_")
            text = (f"uint64_t {variable} = {name}.get_noc_unicast_addr(static_cast<uint32_t>({{}}), "
                    f"static_cast<uint32_t>({{}}), static_cast<uint32_t>({{}}), {noc}.get_noc_id());")
            return [emitc.VerbatimOp.create(operands=[*op.operands[:3], *dynamic], properties={"value": StringAttr(text)}),
                    emitc.LiteralOp.create(properties={"value": StringAttr(variable)}, result_types=result_types)]
        if isinstance(op, ttkernel.ReadStateOp):  # a one-packet read's state on a NoC known when compiling
            noc, dynamic = self.noc_of(op, op.noc)
            if dynamic:
                raise PassFailure(op, "dynamic NoC ID is not supported for stateful async read")
            name, fields = self.endpoint("core" if op.src_core_xy else "bank")
            far = [*op.src_core_xy, *op.src_bank_id, op.src_address]
            if isinstance(op, ttkernel.NocAsyncReadOnePacketSetStateOp):
                text, operands = f"{noc}.set_async_read_state<{ONE_PACKET}>({name}, {{}}, {fields});", [op.size, *far]
            else:
                text = (f"{noc}.async_read_with_state<{ONE_PACKET}>({name}, CoreLocalMem<uint32_t>({{}}), {{}}, "
                        f"{fields}, {{{{}});")
                operands = [op.dst_local_l1_addr, op.size, *far]
            return [emitc.VerbatimOp.create(operands=operands, properties={"value": StringAttr(text)})]
        if isinstance(op, ttkernel.NocAsyncWriteOnePacketWithTridOp):  # a write tagged with its transaction id
            noc, dynamic = self.noc_of(op, op.noc)
            name, fields = self.endpoint("core" if op.core_xy else "bank")
            text = (f"{noc}.async_write<NocOptions::TXN_ID, NOC_MAX_BURST_SIZE>(CoreLocalMem<uint32_t>({{}}), {name}, "
                    f"{{}}, {{{{}} , {fields}, {TRID});")
            return [emitc.VerbatimOp.create(operands=[*dynamic, op.src_local, op.size, *op.core_xy, *op.bank_id,
                                                      op.dst_address, op.trid], properties={"value": StringAttr(text)})]
        if mnemonic in TRID_BARRIERS:
            noc, dynamic = self.noc_of(op, op.operands[1:])
            text = f"{noc}.{TRID_BARRIERS[mnemonic]}<NocOptions::TXN_ID>({TRID});"
            return [emitc.VerbatimOp.create(operands=[*dynamic, op.operands[0]], properties={"value": StringAttr(text)})]
        if mnemonic in NOC_BARRIERS:
            noc, dynamic = self.noc(op)
            return [emitc.VerbatimOp.create(operands=dynamic,
                                            properties={"value": StringAttr(f"{noc}.{NOC_BARRIERS[mnemonic]}();")})]
        if mnemonic in CB_METHODS:  # a method of the CB's object; a pointer is read where it is used, as upstream
            call = f"{self.cb_object(op, op.operands[0])}.{CB_METHODS[mnemonic]}"
            if mnemonic in CB_POINTERS and _pointer_stable(op):
                return [emitc.LiteralOp.create(properties={"value": StringAttr(f"{call}()")},
                                               result_types=result_types)]
            if op.results:
                return [EmitC_CallOpaqueOp(call, [], result_types)]
            return [emitc.VerbatimOp.create(operands=op.operands[1:], properties={"value": StringAttr(f"{call}({{}});")})]
        if isinstance(op, ttkernel.DPrintOp):  # DPRINT("fmt", args...); on a compute core a CB prints its details
            fmt = emitc.LiteralOp.create(properties={"value": StringAttr(f'"{op.fmt.data}"')},
                                         result_types=[EmitC_OpaqueType(StringAttr("const char[]"))])
            ops, args = [fmt], [fmt.result]
            for value in op.argv:
                if value in self.cb_names and self.thread == "compute":  # a CB (its argument op is lowered already)
                    ops.append(EmitC_CallOpaqueOp("ttmlir::CBPrinter", [value], [CB_PRINTER]))
                    value = ops[-1].res[0]
                args.append(value)
            return [*ops, EmitC_CallOpaqueOp("DPRINT", args, [])]
        if mnemonic == "get_compile_time_arg_val":
            index = op.properties["arg_index"].value.data
            return [emitc.LiteralOp.create(properties={"value": StringAttr(f"get_compile_time_arg_val({index})")},
                                           result_types=result_types)]
        if mnemonic in ("mm_init", "mm_block_init"):  # the engines' start-up, then the matmul's own init
            a, b, out, *rest = op.operands
            init = "matmul_init" if mnemonic == "mm_init" else "matmul_block_init"
            return [_call("compute_kernel_hw_startup<SrcOrder::Reverse>", [a, b, out], []),
                    _call(init, [a, b, *rest], [])]
        if op.name in CB_FORMAT_TEMPLATED:  # the tile written in the CB's format, a template
            cb = op.operands[-1]
            if cb not in self.cb_formats:
                raise PassFailure(op, f"'{op.name}' op fills a CB of tiles (a kernel argument)")
            return [_call(f"{_callee(op)}<DataFormat::{self.cb_formats[cb]}>", list(op.operands), result_types)]
        return [_call(_callee(op), list(op.operands), result_types)]


def _functions(op: Operation):
    """The functions in `op`, without walking their bodies (a kernel's ops are most of a module)."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                if isinstance(inner, FuncOp):
                    yield inner
                else:
                    yield from _functions(inner)


def _pointer_stable(op) -> bool:
    """Whether CB pointer op `op` reads the same value at each of its uses: each use is in its block after it (or
    nested in an op after it), and no push or pop of its CB runs from it to the last use."""
    block, cb = op.parent_block(), op.operands[0]
    last = op
    for use in op.results[0].uses:
        user = use.operation
        while user is not None and user.parent_block() is not block:
            user = user.parent_op()
        if user is None or block.get_operation_index(user) <= block.get_operation_index(op):
            return False
        if block.get_operation_index(user) > block.get_operation_index(last):
            last = user
    current = op.next_op
    while current is not None:
        if any(o.name in CB_MOVES and o.operands[0] == cb for o in current.walk()):
            return False
        if current is last:
            return True
        current = current.next_op
    return True


def _arith_lowered(op):
    """A floor division of indices is a plain division (an index is a size_t, never negative); min and max are
    std::min/std::max. A floor division of signed integers has no C++ operator: MLIR's legalization failure."""
    if isinstance(op, arith.FloorDivSIOp):
        if not isinstance(op.result.type, IndexType):
            raise PassFailure(op, "failed to legalize operation 'arith.floordivsi'")
        return emitc.DivOp.create(operands=list(op.operands), result_types=[op.result.type])
    return EmitC_CallOpaqueOp(ARITH_CALLS[type(op)], list(op.operands), [op.result.type])  # as upstream spells it


def _constant(value) -> int | None:
    """The integer a constant operand holds (arith or emitc), None for any other value."""
    owner = getattr(value, "owner", None)
    return owner.value.value.data if isinstance(owner, (arith.ConstantOp, emitc.ConstantOp)) else None


def _call(spelled: str, operands: list, result_types: list) -> EmitC_CallOpaqueOp:
    """A call of `name` or `name<T, U>`: the template arguments go in `template_args`, as upstream writes them."""
    if not spelled.endswith(">"):
        return EmitC_CallOpaqueOp(spelled, operands, result_types)
    name, template = spelled[:-1].split("<", 1)
    return EmitC_CallOpaqueOp(name, operands, result_types, template_args=ArrayAttr(
        [EmitC_OpaqueAttr(StringAttr(t.strip())) for t in template.split(",")]))


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
    if mnemonic == "copy_dest_values":
        return f"copy_dest_values<DataFormat::{DATA_FORMATS[op.properties['data_format'].data.value]}>"
    if mnemonic in ("pack_untilize_init", "experimental.pack_untilize_block"):  # the column passes, as templates
        passes = (op.attributes.get(k) for k in ("colsPerDstPass", "totalColTiles"))
        return f"{mnemonic.replace('.', '::')}<{', '.join(str(p.value.data if p else 1) for p in passes)}>"
    if mnemonic in ("binary_dest_reuse_tiles_init", "binary_dest_reuse_tiles"):  # operator and reuse as templates
        kind = op.properties["eltwise_binary_type"].data.value.upper()
        reuse = op.properties["reuse_type"].data.value.upper()
        return f"{mnemonic}<EltwiseBinaryType::ELW{kind}, EltwiseBinaryReuseDestType::{reuse}>"
    if mnemonic in ("sfpu_reduce_init", "sfpu_reduce"):  # pool, format (and dim) as template arguments
        kind = op.properties["reduce_type"].data.value.removeprefix("reduce_").upper()
        parts = [f"PoolType::{kind}", f"DataFormat::{DATA_FORMATS[op.properties['data_format'].data.value]}"]
        if mnemonic == "sfpu_reduce":
            parts.append(f"ReduceDim::REDUCE_{op.properties['reduce_dim'].data.value.removeprefix('reduce_dim_').upper()}")
        return f"{mnemonic}<{', '.join(parts)}>"
    if mnemonic in ("add_int_tile", "sub_int_tile", "mul_int_tile", "mul_int_tile_init"):  # the format, a template
        return f"{mnemonic}<DataFormat::{DATA_FORMATS[op.properties['dtype'].data.value]}>"
    if mnemonic == "fill_tile_int":  # the word is a 32-bit integer
        return "fill_tile_int<DataFormat::Int32>"
    if mnemonic in ("typecast_tile_init", "typecast_tile"):  # the formats, as template arguments
        formats = (DATA_FORMATS[op.properties[k].data.value] for k in ("in_dtype", "out_dtype"))
        return f"{mnemonic}<{', '.join(f'static_cast<std::underlying_type_t<DataFormat>>(DataFormat::{f})' for f in formats)}>"
    if mnemonic == "where_tile" or mnemonic in ttkernel.DTYPE_BINARY:  # tt-metal selects by the tiles' data format
        return f"{mnemonic}<DataFormat::{DATA_FORMATS[op.properties['dtype'].data.value]}>"
    if mnemonic == "remote_sram_write_u32":  # tt-metal's name for a word of local L1 written to a NoC address
        return "noc_semaphore_set_remote"
    if mnemonic == "reinterpret_cast":
        return f"reinterpret_cast<{c_type(_c_type(op.results[0].type))}>"
    return RENAMED.get(mnemonic, mnemonic.replace(".", "::"))


@dataclass(frozen=True)
class ConvertTTKernelToEmitCPass(ModulePass):
    """Lower the ttkernel ops of kernel functions to emitc calls."""

    name: ClassVar[str] = "convert-ttkernel-to-emitc"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in _functions(op) if is_kernel(f)]:
            rewriter = Rewriter()
            thread = func.attributes["ttkernel.thread"].data.value
            lowering = _KernelLowering(func)
            for kernel_op in [o for o in func.walk() if o.name.startswith("ttkernel.")]:
                if (header := CALL_HEADERS.get(kernel_op.name.removeprefix("ttkernel."))) is not None:
                    lowering.headers.add(header)
                new = lowering.lowered(kernel_op)
                lowering.name_cb(kernel_op, new[-1])
                rewriter.replace_op(kernel_op, new, new[-1].results)
            includes = [emitc.IncludeOp.create(properties={"include": StringAttr(h)}) for h in sorted(lowering.headers)]
            rewriter.insert_op(includes, InsertPoint.at_start(func.body.block))
            arith_ops, constants = [], []  # one walk for both: lowering the one makes none of the other
            for o in func.walk():
                if type(o) in ARITH_CALLS or isinstance(o, arith.FloorDivSIOp):
                    arith_ops.append(o)
                elif isinstance(o, arith.ConstantOp):
                    constants.append(o)
            for arith_op in arith_ops:
                rewriter.replace_op(arith_op, _arith_lowered(arith_op))
            for constant in constants:
                rewriter.replace_op(constant, emitc.ConstantOp.create(properties={"value": constant.value},
                                                                      result_types=[constant.result.type]))
            lower_index_values(func)
            include = includes[-1]
            for text in reversed(lowering.declared):  # the latest first, as upstream puts each at the kernel's top
                rewriter.insert_op(emitc.VerbatimOp.create(properties={"value": StringAttr(text)}),
                                   InsertPoint.after(include))
                include = include.next_op
