// RUN: ttmlir-opt --verify-diagnostics %s

func.func @to_device(%arg0: tensor<64x128xf32>, %arg1: !ttnn.device, %arg2: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{'ttnn.to_device' op expected 2 operands, but found 3}}
  %0 = "ttnn.to_device"(%arg0, %arg1, %arg2) : (tensor<64x128xf32>, !ttnn.device, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
