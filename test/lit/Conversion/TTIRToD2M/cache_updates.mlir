// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: not ttmlir-opt --ttcore-register-device --ttir-to-d2m --split-input-file %S/cache_updates_negative.mlir 2>&1 | FileCheck %S/cache_updates_negative.mlir
// KV-cache updates write into their cache operand: they become programs computing the cache after the write, and
// the uses of the cache after them (here the return) read that value; uses before them read the cache as it was.

// CHECK-LABEL: func.func @fill
// CHECK-SAME: (%[[CACHE:.*]]: tensor<4x2x64x32xbf16>, %{{.*}}: tensor<1x2x18x32xbf16>)
// CHECK-NOT: ttir.fill_cache
// CHECK: d2m.to_layout %[[CACHE]]
// CHECK: d2m.tile_add
// CHECK-NOT: ttir.fill_cache
// CHECK: return %[[BEFORE:[0-9]+]], %[[AFTER:[0-9]+]] :
func.func @fill(%cache: tensor<4x2x64x32xbf16>, %x: tensor<1x2x18x32xbf16>) -> (tensor<4x2x64x32xbf16>, tensor<4x2x64x32xbf16>) {
  %0 = "ttir.add"(%cache, %cache) : (tensor<4x2x64x32xbf16>, tensor<4x2x64x32xbf16>) -> tensor<4x2x64x32xbf16>
  "ttir.fill_cache"(%cache, %x) <{batch_offset = 2 : i32}> : (tensor<4x2x64x32xbf16>, tensor<1x2x18x32xbf16>) -> ()
  return %0, %cache : tensor<4x2x64x32xbf16>, tensor<4x2x64x32xbf16>
}

// The token goes where an arange of the positions (dim 2) equals the user's index, compared in f32.
// CHECK-LABEL: func.func @update
// CHECK-NOT: ttir.paged_update_cache
// CHECK: d2m.tile_typecast
// CHECK: "ttir.arange"() <{arange_dimension = 2 : i64, end = 64 : si64, start = 0 : si64, step = 1 : si64}> : () -> tensor<1x1x64x1xf32>
// CHECK: d2m.tile_eq
// CHECK: d2m.tile_typecast
// CHECK: d2m.tile_where
// CHECK: %[[NEW:[0-9]+]] = d2m.to_layout
// CHECK-NEXT: return %[[NEW]] : tensor<4x2x64x32xbf16>
func.func @update(%cache: tensor<4x2x64x32xbf16>, %x: tensor<1x4x2x32xbf16>, %i: tensor<4xi32>) -> tensor<4x2x64x32xbf16> {
  "ttir.paged_update_cache"(%cache, %x, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (tensor<4x2x64x32xbf16>, tensor<1x4x2x32xbf16>, tensor<4xi32>) -> ()
  return %cache : tensor<4x2x64x32xbf16>
}
