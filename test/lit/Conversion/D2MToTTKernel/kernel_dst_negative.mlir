// RUN: not ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel --split-input-file %s 2>&1 >/dev/null | FileCheck %s
// DST compute this lowering does not make is refused with a located error.

#l1 = #ttcore.memory_space<l1>
#dst = #ttcore.memory_space<dst>
func.func private @bcast_dst() attributes {d2m.thread = #d2m.thread<compute>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %dst = d2m.acquire_dst() : memref<8x!ttcore.tile<32x32, f32>, #dst>
  %b = memref.load %dst[%c0] : memref<8x!ttcore.tile<32x32, f32>, #dst>
  // CHECK: :[[# @LINE + 1]]:8: error: 'd2m.tile_bcast' broadcasts a tile loaded from a CB
  %m = "d2m.tile_bcast"(%b) <{bcast_type = #d2m<tile_bcast_type row>}> : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
  memref.store %m, %dst[%c1] : memref<8x!ttcore.tile<32x32, f32>, #dst>
  return
}

// -----

#dst = #ttcore.memory_space<dst>
func.func private @not_stored() attributes {d2m.thread = #d2m.thread<compute>} {
  %c0 = arith.constant 0 : index
  %dst = d2m.acquire_dst() : memref<8x!ttcore.tile<32x32, f32>, #dst>
  %a = memref.load %dst[%c0] : memref<8x!ttcore.tile<32x32, f32>, #dst>
  %b = memref.load %dst[%c0] : memref<8x!ttcore.tile<32x32, f32>, #dst>
  // CHECK: error: 'd2m.tile_div' result must be stored to one DST slot (a linearized DST index)
  %m = "d2m.tile_div"(%a, %b) : (!ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
  return
}
