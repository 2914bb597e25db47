// RUN: not ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel %s 2>&1 | FileCheck %s
// Integer add, sub and mul run on the SFPU with both tiles in DST; read from their CBs
// (the FPU's form) they are refused: the FPU does not add 32-bit integers exactly.

#l1 = #ttcore.memory_space<l1>
#dst = #ttcore.memory_space<dst>
!tile = !ttcore.tile<32x32, si32>
!blk = memref<2x!tile, #l1>
!dsts = memref<8x!tile, #dst>
func.func private @fpu_add() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(0) : !d2m.cb<!blk>
  %cb1 = d2m.get_cb(1) : !d2m.cb<!blk>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in = d2m.wait %cb0 : !d2m.cb<!blk> -> !blk
  %out = d2m.reserve %cb1 : !d2m.cb<!blk> -> !blk
  %dst = d2m.acquire_dst() : !dsts
  %x = memref.load %in[%c0] : !blk
  %y = memref.load %in[%c1] : !blk
  // CHECK: :[[# @LINE + 1]]:8: error: 'd2m.tile_add' on integer tiles reads both tiles from DST
  %s = "d2m.tile_add"(%x, %y) : (!tile, !tile) -> !tile
  memref.store %s, %dst[%c0] : !dsts
  %r = memref.load %dst[%c0] : !dsts
  memref.store %r, %out[%c0] : !blk
  return
}
