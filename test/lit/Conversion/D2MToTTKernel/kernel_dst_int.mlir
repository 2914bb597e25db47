// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel %s | FileCheck %s
// Ops on si32 tiles call the SFPU's integer entry points: unary ones their `_int32` call after the shared init, binary
// ones on DST slots (integer add, sub and mul told the tiles' format).

#l1 = #ttcore.memory_space<l1>
#dst = #ttcore.memory_space<dst>
!tile = !ttcore.tile<32x32, si32>
!blk = memref<2x!tile, #l1>
!dsts = memref<8x!tile, #dst>

// CHECK-LABEL: func.func private @integers
// CHECK: ttkernel.negative_tile_init()
// CHECK-NEXT: ttkernel.negative_tile_int32(%{{.*}})
// CHECK: ttkernel.mul_int_tile_init(<si32>)
// CHECK: ttkernel.mul_int_tile(%{{.*}}, %{{.*}}, %{{.*}}, <si32>)
// CHECK: ttkernel.binary_min_int32_tile_init()
// CHECK: ttkernel.binary_min_int32_tile(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT: d2m.tile
func.func private @integers() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(0) : !d2m.cb<!blk>
  %cb1 = d2m.get_cb(1) : !d2m.cb<!blk>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in = d2m.wait %cb0 : !d2m.cb<!blk> -> !blk
  %out = d2m.reserve %cb1 : !d2m.cb<!blk> -> !blk
  %dst = d2m.acquire_dst() : !dsts
  %t0 = memref.load %in[%c0] : !blk
  memref.store %t0, %dst[%c0] : !dsts
  %t1 = memref.load %in[%c1] : !blk
  memref.store %t1, %dst[%c1] : !dsts
  %a = memref.load %dst[%c0] : !dsts
  %n = "d2m.tile_negative"(%a) : (!tile) -> !tile
  memref.store %n, %dst[%c0] : !dsts
  %x = memref.load %dst[%c0] : !dsts
  %y = memref.load %dst[%c1] : !dsts
  %m = "d2m.tile_mul"(%x, %y) : (!tile, !tile) -> !tile
  memref.store %m, %dst[%c0] : !dsts
  %p = memref.load %dst[%c0] : !dsts
  %q = memref.load %dst[%c1] : !dsts
  %lo = "d2m.tile_minimum"(%p, %q) : (!tile, !tile) -> !tile
  memref.store %lo, %dst[%c0] : !dsts
  %r = memref.load %dst[%c0] : !dsts
  memref.store %r, %out[%c0] : !blk
  return
}
