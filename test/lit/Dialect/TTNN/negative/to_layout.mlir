// RUN: ttmlir-opt --verify-diagnostics %s

func.func @to_layout(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{'ttnn.to_layout' op requires a single operand}}
  %0 = "ttnn.to_layout"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
