// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: not ttmlir-opt --split-input-file %S/dst_ops_negative.mlir 2>&1 | FileCheck %S/dst_ops_negative.mlir
// DST ops and the tile ops added with them print as upstream writes them, and read back.

#dst = #ttcore.memory_space<dst>
!t = !ttcore.tile<32x32, f32>

// CHECK-LABEL: func.func @dst
func.func @dst(%a: !ttcore.tile<32x32, bf16>, %b: !t, %flag: i32) {
  // CHECK: %dst = d2m.acquire_dst() : memref<4x!ttcore.tile<32x32, f32>, #dst>
  %d = d2m.acquire_dst() : memref<4x!t, #dst>
  // CHECK: %[[C:.*]] = "d2m.dst_reinterpret_cast"(%arg0) : (!ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, f32>
  %c = "d2m.dst_reinterpret_cast"(%a) : (!ttcore.tile<32x32, bf16>) -> !t
  // CHECK: affine.store %[[C]], %dst[1] : memref<4x!ttcore.tile<32x32, f32>, #dst>
  affine.store %c, %d[1] : memref<4x!t, #dst>
  // CHECK: d2m.set_l1_accumulate(%arg2)
  d2m.set_l1_accumulate(%flag)
  // CHECK: "d2m.tile_eqz"(%arg1) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
  %z = "d2m.tile_eqz"(%b) : (!t) -> !t
  // CHECK: "d2m.tile_lez"
  %l = "d2m.tile_lez"(%b) : (!t) -> !t
  // CHECK: "d2m.tile_where"(%{{.*}}, %arg1, %arg1)
  %w = "d2m.tile_where"(%z, %b, %b) : (!t, !t, !t) -> !t
  // CHECK: "d2m.tile_bcast"(%arg1) <{bcast_type = #d2m<tile_bcast_type row>}> : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
  %r = "d2m.tile_bcast"(%b) <{bcast_type = #d2m<tile_bcast_type row>}> : (!t) -> !t
  return
}
