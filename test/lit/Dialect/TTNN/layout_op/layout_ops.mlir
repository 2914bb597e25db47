// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// The layout ops carry no attributes: the result's #ttnn.ttnn_layout says what each makes.
#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#system_memory = #ttnn.buffer_type<system_memory>
#host_rm = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x128xf32, #system_memory>>
#dram_rm = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x128xf32, #dram>, <interleaved>>
#dram_tile = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#dram_tile_bf16 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#l1_tile = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, f32>, #l1>, <interleaved>>

// CHECK-LABEL: func.func @moves
// CHECK: %[[DEV:.*]] = "ttnn.to_device"(%arg0, %arg1) : (tensor<64x128xf32, #{{.*}}>, !ttnn.device) -> tensor<64x128xf32, #[[DRAM_RM:ttnn_layout[0-9]*]]>
// CHECK: %[[TILE:.*]] = "ttnn.to_layout"(%[[DEV]]) : (tensor<64x128xf32, #[[DRAM_RM]]>) -> tensor<64x128xf32, #[[DRAM_TILE:ttnn_layout[0-9]*]]>
// CHECK: %[[L1:.*]] = "ttnn.to_memory_config"(%[[TILE]]) : (tensor<64x128xf32, #[[DRAM_TILE]]>) -> tensor<64x128xf32, #{{.*}}>
// CHECK: %[[CAST:.*]] = "ttnn.typecast"(%[[L1]])
// CHECK-SAME: -> tensor<64x128xbf16
// CHECK: "ttnn.from_device"(%[[TILE]]) : (tensor<64x128xf32, #[[DRAM_TILE]]>) -> tensor<64x128xf32, #{{.*}}>
func.func @moves(%arg0: tensor<64x128xf32, #host_rm>, %arg1: !ttnn.device) -> tensor<64x128xbf16, #dram_tile_bf16> {
  %0 = "ttnn.to_device"(%arg0, %arg1) : (tensor<64x128xf32, #host_rm>, !ttnn.device) -> tensor<64x128xf32, #dram_rm>
  %1 = "ttnn.to_layout"(%0) : (tensor<64x128xf32, #dram_rm>) -> tensor<64x128xf32, #dram_tile>
  %2 = "ttnn.to_memory_config"(%1) : (tensor<64x128xf32, #dram_tile>) -> tensor<64x128xf32, #l1_tile>
  %3 = "ttnn.typecast"(%2) : (tensor<64x128xf32, #l1_tile>) -> tensor<64x128xbf16, #dram_tile_bf16>
  %4 = "ttnn.from_device"(%1) : (tensor<64x128xf32, #dram_tile>) -> tensor<64x128xf32, #host_rm>
  return %3 : tensor<64x128xbf16, #dram_tile_bf16>
}

// The aggregate op: page layout, data type and memory change together.
// CHECK-LABEL: func.func @to_tensor_spec
// CHECK: "ttnn.to_tensor_spec"(%arg0) : (tensor<64x128xf32, #{{.*}}>) -> tensor<64x128xbf16, #{{.*}}>
func.func @to_tensor_spec(%arg0: tensor<64x128xf32, #host_rm>) -> tensor<64x128xbf16, #dram_tile_bf16> {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<64x128xf32, #host_rm>) -> tensor<64x128xbf16, #dram_tile_bf16>
  return %0 : tensor<64x128xbf16, #dram_tile_bf16>
}
