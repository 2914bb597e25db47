// RUN: true
// Checked by cache_updates.mlir's second RUN line.

// CHECK: error: 'ttir.paged_update_cache' with a page table is not converted to D2M yet (a cache row per user is)
func.func @paged(%cache: tensor<8x2x32x32xbf16>, %x: tensor<1x4x2x32xbf16>, %i: tensor<4xi32>, %p: tensor<4x2xi32>) -> tensor<8x2x32x32xbf16> {
  "ttir.paged_update_cache"(%cache, %x, %i, %p) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> : (tensor<8x2x32x32xbf16>, tensor<1x4x2x32xbf16>, tensor<4xi32>, tensor<4x2xi32>) -> ()
  return %cache : tensor<8x2x32x32xbf16>
}

// -----

// CHECK: error: batch_offset 3 with 2 input rows is outside the cache's 4 rows
func.func @fill(%cache: tensor<4x2x64x32xbf16>, %x: tensor<2x2x18x32xbf16>) -> tensor<4x2x64x32xbf16> {
  "ttir.fill_cache"(%cache, %x) <{batch_offset = 3 : i32}> : (tensor<4x2x64x32xbf16>, tensor<2x2x18x32xbf16>) -> ()
  return %cache : tensor<4x2x64x32xbf16>
}
