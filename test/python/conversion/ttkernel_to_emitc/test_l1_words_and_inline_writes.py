"""ttkernel's L1 word ops (`load_from_l1`/`store_to_l1` through an `l1_addr_ptr<N>`), `noc_inline_dw_write` and
`remote_sram_write_u32`, lowered by --convert-ttkernel-to-emitc and printed as C++, compute what tt-metal's calls do
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
    assert "noc_inline_dw_write(" in source and "noc_semaphore_set_remote(" in source
    grid = Grid()
    grid.core(0, 1).l1[8192:8196] = torch.tensor([0xAA] * 4, dtype=torch.uint8)
    grid.run(Program((KernelLaunch("writer", source, "brisc", ((0, 0),)),)))
    local = grid.core(0, 0).l1
    assert local[4096:4104].view(torch.int16).tolist() == [0, -2, 0, -2]  # 16-bit words 1 and 3
    assert local[4104].item() == 7  # byte 8
    far = grid.core(0, 1).l1
    assert far[8192:8196].tolist() == [0x78, 0x56, 0xAA, 0xAA]  # only the two enabled low bytes of 0x12345678
    assert far[8208:8212].tolist() == local[4100:4104].tolist() == [0, 0, 0xFE, 0xFF]  # word 1 of local L1
