// RUN: ttmlir-opt --ttcore-register-device --ttnn-operation-validation-and-fallback %s --mlir-print-local-scope | FileCheck %s
// RUN: not ttmlir-opt --ttcore-register-device --ttnn-operation-validation-and-fallback="max-fallback-attempts=1" %s 2>&1 | FileCheck %s --check-prefix=LIMIT

#dram = #ttnn.buffer_type<dram>
#rm_si32 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xsi32, #dram>, <interleaved>>
#tile_bf16 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#tile_f32 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>

// An eltwise kernel writes its input's format: the declared bf16 tiles come from a conversion after it.
// CHECK-LABEL: func.func @eltwise_keeps_input_format
// CHECK: %[[SUB:.*]] = "ttnn.subtract"(%arg0, %arg1){{.*}} -> tensor<32x32xsi32, #ttnn.ttnn_layout<{{.*}}memref<32x32xsi32
// CHECK: %[[BACK:.*]] = "ttnn.to_tensor_spec"(%[[SUB]]){{.*}} -> tensor<32x32xbf16, #ttnn.ttnn_layout<{{.*}}!ttcore.tile<32x32, bf16>
// CHECK: return %[[BACK]]
func.func @eltwise_keeps_input_format(%arg0: tensor<32x32xsi32, #rm_si32>, %arg1: tensor<32x32xsi32, #rm_si32>) -> tensor<32x32xbf16, #tile_bf16> {
  %0 = "ttnn.subtract"(%arg0, %arg1) : (tensor<32x32xsi32, #rm_si32>, tensor<32x32xsi32, #rm_si32>) -> tensor<32x32xbf16, #tile_bf16>
  return %0 : tensor<32x32xbf16, #tile_bf16>
}

// An op already declared as its kernel runs is left alone.
// CHECK-LABEL: func.func @valid
// CHECK-NOT: to_tensor_spec
// CHECK: return
func.func @valid(%arg0: tensor<32x32xf32, #tile_f32>) -> tensor<32x32xf32, #tile_f32> {
  %0 = "ttnn.relu"(%arg0) : (tensor<32x32xf32, #tile_f32>) -> tensor<32x32xf32, #tile_f32>
  return %0 : tensor<32x32xf32, #tile_f32>
}

// An op naming its dtype writes it; the kernel's row-major input page layout still carries over.
// CHECK-LABEL: func.func @relu_to_bf16
// CHECK: "ttnn.relu"{{.*}} -> tensor<32x32xbf16, #ttnn.ttnn_layout<{{.*}}!ttcore.tile<32x32, bf16>
// CHECK-NOT: to_tensor_spec
func.func @relu_to_bf16(%arg0: tensor<32x32xf32, #tile_f32>) -> tensor<32x32xbf16, #tile_bf16> {
  %0 = "ttnn.relu"(%arg0) <{dtype = #ttcore.supportedDataTypes<bf16>}> : (tensor<32x32xf32, #tile_f32>) -> tensor<32x32xbf16, #tile_bf16>
  return %0 : tensor<32x32xbf16, #tile_bf16>
}

// CHECK-LABEL: func.func @two
// LIMIT: error: operation validation needs more than max-fallback-attempts=1 fallbacks
func.func @two(%arg0: tensor<32x32xf32, #tile_f32>) -> (tensor<32x32xbf16, #tile_bf16>, tensor<32x32xbf16, #tile_bf16>) {
  %0 = "ttnn.relu"(%arg0) : (tensor<32x32xf32, #tile_f32>) -> tensor<32x32xbf16, #tile_bf16>
  %1 = "ttnn.exp"(%arg0) : (tensor<32x32xf32, #tile_f32>) -> tensor<32x32xbf16, #tile_bf16>
  return %0, %1 : tensor<32x32xbf16, #tile_bf16>, tensor<32x32xbf16, #tile_bf16>
}
