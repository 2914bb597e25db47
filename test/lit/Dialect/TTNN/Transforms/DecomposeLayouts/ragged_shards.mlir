// RUN: ttmlir-opt --ttcore-register-device --ttnn-decompose-layouts %s | FileCheck %s

#l1 = #ttnn.buffer_type<l1>
#rm_shards = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x20xbf16, #l1>, <height_sharded>, core_ranges = #ttnn.core_range_set<[#ttnn.core_range<(0,0), (0,0)>]>>
#tile_shards = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x1x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = #ttnn.core_range_set<[#ttnn.core_range<(0,0), (0,0)>]>>
#rm_tile_shards = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x32xbf16, #l1>, <height_sharded>, core_ranges = #ttnn.core_range_set<[#ttnn.core_range<(0,0), (0,0)>]>>

// Shards 20 wide: tilized in DRAM, padded to 64x32 and sliced back, then resharded.
// CHECK-LABEL: func.func @ragged
// CHECK: %[[U:.*]] = "ttnn.to_memory_config"(%arg0) : (tensor<64x20xbf16, #{{.*}}>) -> tensor<64x20xbf16, #[[DRAM_RM:.*]]>
// CHECK-NEXT: %[[P:.*]] = "ttnn.pad"(%[[U]]) <{padding = array<i32: 0, 0, 0, 12>, value = 0.000000e+00 : f32}> : (tensor<64x20xbf16, #[[DRAM_RM]]>) -> tensor<64x32xbf16, #{{.*}}>
// CHECK-NEXT: %[[T:.*]] = "ttnn.to_layout"(%[[P]])
// CHECK-NEXT: %[[S:.*]] = "ttnn.slice_static"(%[[T]]) <{begins = [0 : i32, 0 : i32], ends = [64 : i32, 20 : i32], step = [1 : i32, 1 : i32]}>
// CHECK-NEXT: %[[R:.*]] = "ttnn.to_memory_config"(%[[S]])
// CHECK-NEXT: return %[[R]]
func.func @ragged(%arg0: tensor<64x20xbf16, #rm_shards>) -> tensor<64x20xbf16, #tile_shards> {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<64x20xbf16, #rm_shards>) -> tensor<64x20xbf16, #tile_shards>
  return %0 : tensor<64x20xbf16, #tile_shards>
}

// Whole-tile shards tilize in place.
// CHECK-LABEL: func.func @whole_tiles
// CHECK: "ttnn.to_layout"(%arg0)
// CHECK-NOT: "ttnn.pad"
func.func @whole_tiles(%arg0: tensor<64x32xbf16, #rm_tile_shards>) -> tensor<64x32xbf16, #tile_shards> {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<64x32xbf16, #rm_tile_shards>) -> tensor<64x32xbf16, #tile_shards>
  return %0 : tensor<64x32xbf16, #tile_shards>
}
