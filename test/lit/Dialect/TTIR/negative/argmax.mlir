// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.argmax' op requires a single operand}}
module {
  func.func @argmax(%arg0: tensor<4x32x64xf32>, %arg1: tensor<4x32x64xf32>) -> tensor<4x32xsi32> {
    %0 = "ttir.argmax"(%arg0, %arg1) <{dim_arg = [2 : i32], keep_dim = false}> : (tensor<4x32x64xf32>, tensor<4x32x64xf32>) -> tensor<4x32xsi32>
    return %0 : tensor<4x32xsi32>
  }
}
