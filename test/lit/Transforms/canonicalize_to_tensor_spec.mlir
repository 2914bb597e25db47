// RUN: ttmlir-opt --canonicalize %s | FileCheck %s

#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#system_memory = #ttnn.buffer_type<system_memory>
#host_bf16 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xbf16, #system_memory>>
#dram_tile_bf16 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#dram_tile_f32 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#dram_rm_f32 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xf32, #dram>, <interleaved>>
#l1_tile_bf16 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>

// Two conversions in a row are one, from the first one's input.
// CHECK-LABEL: func.func @merge
// CHECK-NEXT: %[[S:.*]] = "ttnn.to_tensor_spec"(%arg0) : (tensor<32x32xbf16, {{.*}}>) -> tensor<32x32xf32,
// CHECK-NEXT: return %[[S]]
func.func @merge(%arg0: tensor<32x32xbf16, #host_bf16>) -> tensor<32x32xf32, #dram_rm_f32> {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<32x32xbf16, #host_bf16>) -> tensor<32x32xbf16, #dram_tile_bf16>
  %1 = "ttnn.to_tensor_spec"(%0) : (tensor<32x32xbf16, #dram_tile_bf16>) -> tensor<32x32xf32, #dram_rm_f32>
  return %1 : tensor<32x32xf32, #dram_rm_f32>
}

// A conversion to the type it starts from is nothing.
// CHECK-LABEL: func.func @identity
// CHECK-NOT: "ttnn.to_tensor_spec"
// CHECK: return %arg0
func.func @identity(%arg0: tensor<32x32xbf16, #dram_tile_bf16>) -> tensor<32x32xbf16, #dram_tile_bf16> {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<32x32xbf16, #dram_tile_bf16>) -> tensor<32x32xbf16, #dram_tile_bf16>
  return %0 : tensor<32x32xbf16, #dram_tile_bf16>
}

// Parked in DRAM while another op runs, then brought to L1: the staging stays.
// CHECK-LABEL: func.func @staged_in_dram
// CHECK: %[[D:.*]] = "ttnn.to_tensor_spec"(%arg0)
// CHECK: "ttnn.to_tensor_spec"(%[[D]])
func.func @staged_in_dram(%arg0: tensor<32x32xf32, #dram_rm_f32>, %arg1: tensor<32x32xbf16, #dram_tile_bf16>) -> (tensor<32x32xbf16, #l1_tile_bf16>, tensor<32x32xbf16, #dram_tile_bf16>) {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<32x32xf32, #dram_rm_f32>) -> tensor<32x32xbf16, #dram_tile_bf16>
  %1 = "ttnn.relu"(%arg1) : (tensor<32x32xbf16, #dram_tile_bf16>) -> tensor<32x32xbf16, #dram_tile_bf16>
  %2 = "ttnn.to_tensor_spec"(%0) : (tensor<32x32xbf16, #dram_tile_bf16>) -> tensor<32x32xbf16, #l1_tile_bf16>
  return %2, %1 : tensor<32x32xbf16, #l1_tile_bf16>, tensor<32x32xbf16, #dram_tile_bf16>
}

// A widening cast undone by the conversion is skipped; a narrowing one is kept.
// CHECK-LABEL: func.func @lossless_round_trip
// CHECK-NOT: "ttnn.typecast"
// CHECK: "ttnn.to_tensor_spec"(%arg0)
func.func @lossless_round_trip(%arg0: tensor<32x32xbf16, #l1_tile_bf16>) -> tensor<32x32xbf16, #dram_tile_bf16> {
  %0 = "ttnn.typecast"(%arg0) : (tensor<32x32xbf16, #l1_tile_bf16>) -> tensor<32x32xf32, #dram_tile_f32>
  %1 = "ttnn.to_tensor_spec"(%0) : (tensor<32x32xf32, #dram_tile_f32>) -> tensor<32x32xbf16, #dram_tile_bf16>
  return %1 : tensor<32x32xbf16, #dram_tile_bf16>
}

// CHECK-LABEL: func.func @lossy_round_trip
// CHECK: %[[C:.*]] = "ttnn.typecast"(%arg0)
// CHECK: "ttnn.to_tensor_spec"(%[[C]])
func.func @lossy_round_trip(%arg0: tensor<32x32xf32, #dram_tile_f32>) -> tensor<32x32xf32, #dram_rm_f32> {
  %0 = "ttnn.typecast"(%arg0) : (tensor<32x32xf32, #dram_tile_f32>) -> tensor<32x32xbf16, #dram_tile_bf16>
  %1 = "ttnn.to_tensor_spec"(%0) : (tensor<32x32xbf16, #dram_tile_bf16>) -> tensor<32x32xf32, #dram_rm_f32>
  return %1 : tensor<32x32xf32, #dram_rm_f32>
}
