// RUN: ttmlir-opt --ttcore-register-device --ttnn-decompose-layouts --mlir-print-local-scope %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --ttnn-decompose-layouts %s | ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=EXEC

// Each ttnn.to_tensor_spec becomes the moves the runtime runs, in the order upstream's pass picks.
#dram = #ttnn.buffer_type<dram>
#system_memory = #ttnn.buffer_type<system_memory>
#host_rm = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x128xf32, #system_memory>>
#host_rm_u8 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x128xui8, #system_memory>>
#dram_rm = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x128xf32, #dram>, <interleaved>>
#dram_tile = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#dram_tile_bf16 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#dram_tile_u8 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, u8>, #dram>, <interleaved>>

// From the host: onto the device first, then one to_layout tilizes and casts the floats.
// CHECK-LABEL: func.func @host_to_tiled_bf16
// CHECK: %[[DEV:.*]] = "ttnn.get_device"()
// CHECK: %[[ON:.*]] = "ttnn.to_device"(%arg0, %[[DEV]]) {{.*}} -> tensor<64x128xf32, {{.*}}memref<64x128xf32, #ttnn.buffer_type<dram>>, <interleaved>>>
// CHECK-NEXT: %[[T:.*]] = "ttnn.to_layout"(%[[ON]]) {{.*}} -> tensor<64x128xbf16, {{.*}}tile<32x32, bf16>
// CHECK-NEXT: return %[[T]]
func.func @host_to_tiled_bf16(%arg0: tensor<64x128xf32, #host_rm>) -> tensor<64x128xbf16, #dram_tile_bf16> {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<64x128xf32, #host_rm>) -> tensor<64x128xbf16, #dram_tile_bf16>
  return %0 : tensor<64x128xbf16, #dram_tile_bf16>
}

// To the host: the untilize and the cast run on the device (cast first, on tiles), then the tensor leaves.
// CHECK-LABEL: func.func @tiled_bf16_to_host
// CHECK: %[[C:.*]] = "ttnn.typecast"(%arg0) {{.*}} -> tensor<64x128xf32, {{.*}}tile<32x32, f32>
// CHECK-NEXT: %[[R:.*]] = "ttnn.to_layout"(%[[C]]) {{.*}} -> tensor<64x128xf32, {{.*}}memref<64x128xf32, #ttnn.buffer_type<dram>>
// CHECK-NEXT: %[[H:.*]] = "ttnn.from_device"(%[[R]]) {{.*}} -> tensor<64x128xf32, {{.*}}system_memory
// CHECK-NEXT: return %[[H]]
func.func @tiled_bf16_to_host(%arg0: tensor<64x128xbf16, #dram_tile_bf16>) -> tensor<64x128xf32, #host_rm> {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<64x128xbf16, #dram_tile_bf16>) -> tensor<64x128xf32, #host_rm>
  return %0 : tensor<64x128xf32, #host_rm>
}

// The device cannot tilize u8: the tilize runs on the host, then the tiles move.
// CHECK-LABEL: func.func @host_u8_to_tiles
// CHECK: %[[T:.*]] = "ttnn.to_layout"(%arg0) {{.*}} -> tensor<64x128xui8, {{.*}}tile<32x32, u8>, #ttnn.buffer_type<system_memory>>
// CHECK-NEXT: "ttnn.to_device"(%[[T]]
func.func @host_u8_to_tiles(%arg0: tensor<64x128xui8, #host_rm_u8>) -> tensor<64x128xui8, #dram_tile_u8> {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<64x128xui8, #host_rm_u8>) -> tensor<64x128xui8, #dram_tile_u8>
  return %0 : tensor<64x128xui8, #dram_tile_u8>
}

// On the device, page layout only.
// CHECK-LABEL: func.func @untilize_in_dram
// CHECK: "ttnn.to_layout"(%arg0) {{.*}} -> tensor<64x128xf32, {{.*}}memref<64x128xf32, #ttnn.buffer_type<dram>>, <interleaved>>>
// CHECK-NOT: "ttnn.to_memory_config"
func.func @untilize_in_dram(%arg0: tensor<64x128xf32, #dram_tile>) -> tensor<64x128xf32, #dram_rm> {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<64x128xf32, #dram_tile>) -> tensor<64x128xf32, #dram_rm>
  return %0 : tensor<64x128xf32, #dram_rm>
}
// EXEC: PASS
