// RUN: not ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel %s 2>&1 | FileCheck %s
// An integer op of CB tiles copies one of them into a DST slot no access of the kernel uses: with every slot of a
// one-slot DST taken by the result, there is none.

#l1 = #ttcore.memory_space<l1>
#dst = #ttcore.memory_space<dst>
!tile = !ttcore.tile<32x32, si32>
!blk = memref<2x!tile, #l1>
!dsts = memref<1x!tile, #dst>
func.func private @int_mul() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(0) : !d2m.cb<!blk>
  %cb1 = d2m.get_cb(1) : !d2m.cb<!blk>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in = d2m.wait %cb0 : !d2m.cb<!blk> -> !blk
  %out = d2m.reserve %cb1 : !d2m.cb<!blk> -> !blk
  %dst = d2m.acquire_dst() : !dsts
  %x = memref.load %in[%c0] : !blk
  %y = memref.load %in[%c1] : !blk
  // CHECK: :[[# @LINE + 1]]:8: error: 'd2m.tile_mul' on integer tiles of CBs needs a free DST slot; all are in use
  %p = "d2m.tile_mul"(%x, %y) : (!tile, !tile) -> !tile
  memref.store %p, %dst[%c0] : !dsts
  %r = memref.load %dst[%c0] : !dsts
  memref.store %r, %out[%c0] : !blk
  return
}
