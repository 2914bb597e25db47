// RUN: ttmlir-opt --verify-diagnostics %s

func.func @rand(%arg0: !ttnn.device, %arg1: !ttnn.device) -> tensor<64x128xf32> {
  // expected-error @+1 {{'ttnn.rand' op requires a single operand}}
  %0 = "ttnn.rand"(%arg0, %arg1) <{high = 1.000000e+00 : f32, low = 0.000000e+00 : f32, seed = 0 : ui32, size = #ttnn.shape<64x128>}> : (!ttnn.device, !ttnn.device) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
