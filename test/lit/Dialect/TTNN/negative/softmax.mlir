// RUN: ttmlir-opt --verify-diagnostics %s

func.func @softmax(%arg0: tensor<32x64xf32>, %arg1: tensor<32x64xf32>) -> tensor<32x64xf32> {
  // expected-error @+1 {{'ttnn.softmax' op requires a single operand}}
  %0 = "ttnn.softmax"(%arg0, %arg1) <{dimension = 1 : si32}> : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
}
