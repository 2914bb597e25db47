// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// ttnn.to_layout only tilizes or untilizes (and may cast); moves between memories are to_tensor_spec's.
#dram_rm = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x128xf32, #ttnn.buffer_type<dram>>, <interleaved>>
#l1_tile = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<l1>>, <interleaved>>
func.func @to_layout_changes_buffer(%arg0: tensor<64x128xf32, #dram_rm>) -> tensor<64x128xf32, #l1_tile> {
  // expected-error @+1 {{'ttnn.to_layout' op ttnn.to_layout cannot change buffer type from 'dram' to 'l1'; use ttnn.to_tensor_spec for memory-config or device placement changes}}
  %0 = "ttnn.to_layout"(%arg0) : (tensor<64x128xf32, #dram_rm>) -> tensor<64x128xf32, #l1_tile>
  return %0 : tensor<64x128xf32, #l1_tile>
}

// -----
#dram_rm = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x128xf32, #ttnn.buffer_type<dram>>, <interleaved>>
#dram_tile_sharded = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<dram>>, <width_sharded>, core_ranges = #ttnn.core_range_set<[#ttnn.core_range<(0,0), (0,0)>]>>
func.func @to_layout_changes_memory_layout(%arg0: tensor<64x128xf32, #dram_rm>) -> tensor<64x128xf32, #dram_tile_sharded> {
  // expected-error @+1 {{'ttnn.to_layout' op ttnn.to_layout cannot change tensor memory layout; use ttnn.to_tensor_spec for memory-config changes}}
  %0 = "ttnn.to_layout"(%arg0) : (tensor<64x128xf32, #dram_rm>) -> tensor<64x128xf32, #dram_tile_sharded>
  return %0 : tensor<64x128xf32, #dram_tile_sharded>
}

// -----
func.func @to_layout_without_layouts(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{'ttnn.to_layout' op Input tensor type missing layout attribute}}
  %0 = "ttnn.to_layout"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----
func.func @to_tensor_spec_without_layout(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{'ttnn.to_tensor_spec' op Output tensor type missing layout attribute}}
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----
// Block sharding in DRAM is refused where the layout is written, before any op sees it.
// expected-error @+1 {{BlockSharded layout is not supported for DRAM buffer type; use WidthSharded, HeightSharded or Interleaved}}
#dram_block = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<dram>>, <block_sharded>>
