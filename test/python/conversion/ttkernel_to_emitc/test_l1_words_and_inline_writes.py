"""ttkernel's L1 word ops (`load_from_l1`/`store_to_l1` through an `l1_addr_ptr<N>`), `noc_inline_dw_write` and
`remote_sram_write_u32` (its NoC address from the unicast endpoint's `get_noc_unicast_addr`), lowered by
--convert-ttkernel-to-emitc and printed as C++ in tt-metal's object API, compute what tt-metal's calls do
when the simulated grid runs them: words of the pointer's width, the enabled bytes of an inline write, a word copied
to another core."""

from __future__ import annotations

import torch

from ttmlir.asm import parse_text
from ttmlir.dialects import make_context
from ttmlir.passes import make_pass
from ttmlir.runtime.metal.core import KernelLaunch, Program
from ttmlir.runtime.metal.grid import Grid
from ttmlir.target.cpp import kernel_source

KERNEL = """
func.func @writer() -> () attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %base = arith.constant 4096 : i32
  %words16 = ttkernel.reinterpret_cast(%base) : (i32) -> !ttkernel.l1_addr_ptr<16>
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %v = arith.constant -2 : i16
  ttkernel.store_to_l1(%v, %words16, %c1) : (i16, !ttkernel.l1_addr_ptr<16>, i32) -> ()
  %back = ttkernel.load_from_l1(%words16, %c1) : (!ttkernel.l1_addr_ptr<16>, i32) -> i16
  ttkernel.store_to_l1(%back, %words16, %c3) : (i16, !ttkernel.l1_addr_ptr<16>, i32) -> ()
  %bytes = ttkernel.reinterpret_cast(%base) : (i32) -> !ttkernel.l1_addr_ptr<8>
  %b = arith.constant 7 : i8
  %c8 = arith.constant 8 : i32
  ttkernel.store_to_l1(%b, %bytes, %c8) : (i8, !ttkernel.l1_addr_ptr<8>, i32) -> ()
  %x = arith.constant 19 : index
  %y = arith.constant 18 : index
  %far = arith.constant 8192 : i32
  %word = arith.constant 305419896 : i32
  %low_half = arith.constant 3 : i8
  %noc = arith.constant 0 : i8
  ttkernel.noc_inline_dw_write(core[%x, %y], %far, %word, %low_half, noc %noc) : (index, index, i32, i32, i8, i8) -> ()
  %far2 = arith.constant 8208 : i32
  %dst = "ttkernel.get_noc_addr"(%x, %y, %far2, %noc) : (index, index, i32, i8) -> !ttkernel.noc_addr
  %src = arith.constant 4100 : i32
  "ttkernel.remote_sram_write_u32"(%src, %dst, %noc) : (i32, !ttkernel.noc_addr, i8) -> ()
  ttkernel.noc_async_write_barrier(%noc) : (i8) -> ()
  return
}
"""


def _cpp() -> str:
    module, _ = parse_text(make_context(), KERNEL)
    make_pass("convert-ttkernel-to-emitc").apply(make_context(), module)
    module.verify()
    return kernel_source(next(op for op in module.walk() if getattr(op, "sym_name", None)
                              and op.sym_name.data == "writer"))


def test_l1_words_inline_and_remote_writes_run_on_the_grid():
    source = _cpp()
    assert "noc0.inline_dw_write<NocOptions::INLINE_L1>(unicast_ep, " in source
    assert "unicast_ep.get_noc_unicast_addr(" in source and "noc_semaphore_set_remote(" in source
    grid = Grid()
    grid.core(0, 1).l1[8192:8196] = torch.tensor([0xAA] * 4, dtype=torch.uint8)
    grid.run(Program((KernelLaunch("writer", source, "brisc", ((0, 0),)),)))
    local = grid.core(0, 0).l1
    assert local[4096:4104].view(torch.int16).tolist() == [0, -2, 0, -2]  # 16-bit words 1 and 3
    assert local[4104].item() == 7  # byte 8
    far = grid.core(0, 1).l1
    assert far[8192:8196].tolist() == [0x78, 0x56, 0xAA, 0xAA]  # only the two enabled low bytes of 0x12345678
    assert far[8208:8212].tolist() == local[4100:4104].tolist() == [0, 0, 0xFE, 0xFF]  # word 1 of local L1


COMPUTE = """
func.func @compute() -> () attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %in0 = ttkernel.get_compile_time_arg_val(0) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, f32>>
  %in1 = ttkernel.get_compile_time_arg_val(1) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, f32>>
  %out = ttkernel.get_compile_time_arg_val(2) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, f32>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %n = ttkernel.get_arg_val(%c0) : (index) -> i32
  %count = arith.index_cast %n : i32 to index
  ttkernel.init_sfpu(%in0, %out) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, !ttkernel.cb<2, !ttcore.tile<32x32, f32>>) -> ()
  scf.for %i = %c0 to %count step %c1 {
    ttkernel.cb_wait_front(%in0, %one) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, i32) -> ()
    ttkernel.cb_wait_front(%in1, %one) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, i32) -> ()
    ttkernel.cb_reserve_back(%out, %one) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, i32) -> ()
    ttkernel.tile_regs_acquire() : () -> ()
    ttkernel.copy_block_matmul_partials(%in0, %c0, %c1, %c1) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, index, index, index) -> ()
    ttkernel.copy_tile_init(%in1) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>) -> ()
    ttkernel.copy_tile(%in1, %c0, %c0) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, index, index) -> ()
    ttkernel.copy_dest_values_init() : () -> ()
    ttkernel.copy_dest_values(%c1, %c2, <f32>) : (index, index) -> ()
    ttkernel.sub_binary_tile_init() : () -> ()
    ttkernel.sub_binary_tile(%c2, %c0, %c2) : (index, index, index) -> ()
    ttkernel.tile_regs_commit() : () -> ()
    ttkernel.tile_regs_wait() : () -> ()
    ttkernel.pack_tile_block(%c2, %out, %c1) : (index, !ttkernel.cb<2, !ttcore.tile<32x32, f32>>, index) -> ()
    ttkernel.tile_regs_release() : () -> ()
    ttkernel.cb_push_back(%out, %one) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, i32) -> ()
    ttkernel.cb_pop_front(%in0, %one) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, i32) -> ()
    ttkernel.cb_pop_front(%in1, %one) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, i32) -> ()
  }
  return
}
"""


def _source(text: str, name: str) -> str:
    module, _ = parse_text(make_context(), text)
    make_pass("convert-ttkernel-to-emitc").apply(make_context(), module)
    module.verify()
    return kernel_source(next(op for op in module.walk() if getattr(op, "sym_name", None)
                              and op.sym_name.data == name))


def test_block_copies_and_dst_copies_compute_a_minus_b():
    """copy_block_matmul_partials puts a in dst 1, copy_dest_values copies it to dst 2, pack_tile_block packs
    dst 2 (after b is subtracted): a wrong index anywhere gives another answer."""
    from ttmlir.runtime.metal.reference import eltwise

    a, b = torch.randn(64, 64), torch.randn(64, 64)
    out, _ = eltwise(Grid(), a, b, _source(COMPUTE, "compute"), "f32", [(0, 0), (0, 1)])
    assert torch.allclose(out, a - b, rtol=1e-2, atol=2e-2)  # dst holds bf16 without fp32 accumulation


SYNC = """
func.func @sync() -> () attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %src = arith.constant 4096 : i32
  %dst = arith.constant 8192 : i32
  %size = arith.constant 64 : i32
  %trid = arith.constant 5 : i32
  %noc = arith.constant 0 : i8
  %x = arith.constant 19 : index
  %y = arith.constant 18 : index
  ttkernel.noc_async_write_one_packet_with_trid(%src, core[%x, %y], %dst, %size, %trid, noc %noc) : (i32, index, index, i32, i32, i32, i8) -> ()
  "ttkernel.noc_async_write_barrier_with_trid"(%trid, %noc) : (i32, i8) -> ()
  "ttkernel.noc_async_read_barrier_with_trid"(%trid, %noc) : (i32, i8) -> ()
  %x1 = arith.constant 20 : index
  %sem = arith.constant 12288 : i32
  %mcast = ttkernel.get_noc_multicast_addr(%x, %y, %x1, %y, %sem, %noc) : (index, index, index, index, i32, i8) -> !ttkernel.noc_addr
  %three = arith.constant 3 : i32
  %two = arith.constant 2 : i32
  "ttkernel.noc_semaphore_inc_multicast"(%mcast, %three, %two, %noc) : (!ttkernel.noc_addr, i32, i32, i8) -> ()
  ttkernel.noc_async_atomic_barrier(%noc) : (i8) -> ()
  %a = arith.constant 16256 : i16
  %b = arith.constant -16512 : i16
  %gt = ttkernel.bfloat16_greater(%a, %b) : (i16, i16) -> i1
  %lt = ttkernel.bfloat16_greater(%b, %a) : (i16, i16) -> i1
  %fa = arith.constant 1065353216 : i32
  %fb = arith.constant 1073741824 : i32
  %fgt = ttkernel.float32_greater(%fb, %fa) : (i32, i32) -> i1
  %flags = ttkernel.reinterpret_cast(%src) : (i32) -> !ttkernel.l1_addr_ptr<8>
  %c100 = arith.constant 100 : i32
  %c101 = arith.constant 101 : i32
  %c102 = arith.constant 102 : i32
  %g8 = arith.extui %gt : i1 to i8
  %l8 = arith.extui %lt : i1 to i8
  %f8 = arith.extui %fgt : i1 to i8
  ttkernel.store_to_l1(%g8, %flags, %c100) : (i8, !ttkernel.l1_addr_ptr<8>, i32) -> ()
  ttkernel.store_to_l1(%l8, %flags, %c101) : (i8, !ttkernel.l1_addr_ptr<8>, i32) -> ()
  ttkernel.store_to_l1(%f8, %flags, %c102) : (i8, !ttkernel.l1_addr_ptr<8>, i32) -> ()
  return
}
"""


def test_tagged_writes_multicast_increments_and_float_compares_run_on_the_grid():
    """A write tagged with a transaction id lands, a multicast increment reaches both cores of its rectangle,
    and bf16/f32 compares read their bits as floats (1.0 > -1.5 as bf16, 2.0 > 1.0 as f32)."""
    source = _source(SYNC, "sync")
    assert "NocOptVals{.trid = " in source and "async_write<NocOptions::TXN_ID" in source
    grid = Grid()
    grid.core(0, 0).l1[4096:4160] = torch.arange(64, dtype=torch.uint8)
    grid.run(Program((KernelLaunch("sync", source, "brisc", ((0, 0),)),)))
    assert grid.core(0, 1).l1[8192:8256].tolist() == list(range(64))
    assert [grid.core(0, x).l1[12288:12292].view(torch.int32).item() for x in (1, 2)] == [3, 3]
    assert grid.core(0, 0).l1[4196:4199].tolist() == [1, 0, 1]


DYNAMIC_NOC = """
func.func @dynamic() -> () attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %slot = arith.constant 2048 : i32
  %bytes = ttkernel.reinterpret_cast(%slot) : (i32) -> !ttkernel.l1_addr_ptr<8>
  %c0 = arith.constant 0 : i32
  %noc = ttkernel.load_from_l1(%bytes, %c0) : (!ttkernel.l1_addr_ptr<8>, i32) -> i8
  %src = arith.constant 4096 : i32
  %dst = arith.constant 8192 : i32
  %size = arith.constant 32 : i32
  %x = arith.constant 19 : index
  %y = arith.constant 18 : index
  ttkernel.noc_async_write %src, core[%x, %y], %dst, %size, noc %noc : (i32, index, index, i32, i32, i8) -> ()
  ttkernel.noc_async_write_barrier(%noc) : (i8) -> ()
  ttkernel.noc_async_atomic_barrier(%noc) : (i8) -> ()
  return
}
"""


def test_a_noc_the_kernel_reads_from_l1_names_a_temporary_noc_object():
    source = _source(DYNAMIC_NOC, "dynamic")
    assert "Noc(v" in source and '#include "api/dataflow/noc.h"' in source
    grid = Grid()
    grid.core(0, 0).l1[2048] = 1
    grid.core(0, 0).l1[4096:4128] = torch.arange(32, dtype=torch.uint8)
    grid.run(Program((KernelLaunch("dynamic", source, "brisc", ((0, 0),)),)))
    assert grid.core(0, 1).l1[8192:8224].tolist() == list(range(32))
