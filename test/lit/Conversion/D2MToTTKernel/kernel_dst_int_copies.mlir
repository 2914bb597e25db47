// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel %s | FileCheck %s
// The FPU does not add 32-bit integers exactly: an integer add, sub or mul of CB tiles (the FPU's form) copies them
// into DST, the first into the result's slot, the other into a slot no DST access of the kernel uses, and runs on
// the SFPU's integer entry point.

// CHECK-LABEL: func.func private @int_add
// CHECK: %[[RESULT:.*]] = arith.constant 0 : index
// CHECK: ttkernel.copy_tile_init(%[[IN:.*]]) :
// CHECK: ttkernel.copy_tile(%[[IN]], %{{.*}}, %[[LHS:.*]]) :
// CHECK: %[[SPARE:.*]] = arith.constant 7 : index
// CHECK: ttkernel.copy_tile(%[[IN]], %{{.*}}, %[[SPARE]]) :
// CHECK-NEXT: ttkernel.add_int_tile_init() : () -> ()
// CHECK-NEXT: ttkernel.add_int_tile(%[[LHS]], %[[SPARE]], %{{.*}}, <si32>)
// CHECK: ttkernel.pack_tile
#l1 = #ttcore.memory_space<l1>
#dst = #ttcore.memory_space<dst>
!tile = !ttcore.tile<32x32, si32>
!blk = memref<2x!tile, #l1>
!dsts = memref<8x!tile, #dst>
func.func private @int_add() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(0) : !d2m.cb<!blk>
  %cb1 = d2m.get_cb(1) : !d2m.cb<!blk>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in = d2m.wait %cb0 : !d2m.cb<!blk> -> !blk
  %out = d2m.reserve %cb1 : !d2m.cb<!blk> -> !blk
  %dst = d2m.acquire_dst() : !dsts
  %x = memref.load %in[%c0] : !blk
  %y = memref.load %in[%c1] : !blk
  %s = "d2m.tile_add"(%x, %y) : (!tile, !tile) -> !tile
  memref.store %s, %dst[%c0] : !dsts
  %r = memref.load %dst[%c0] : !dsts
  memref.store %r, %out[%c0] : !blk
  return
}
