// RUN: ttmlir-opt --verify-diagnostics %s

func.func @reverse(%arg0: tensor<32x64xf32>, %arg1: tensor<32x64xf32>) -> tensor<32x64xf32> {
  // expected-error @+1 {{'ttnn.reverse' op requires a single operand}}
  %0 = "ttnn.reverse"(%arg0, %arg1) <{dimensions = array<i64: 0, 1>}> : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
}
