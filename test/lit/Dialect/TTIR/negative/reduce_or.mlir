// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.reduce_or' op requires a single operand}}
module {
  func.func @reduce_or(%arg0: tensor<4x32x64xf32>, %arg1: tensor<4x32x64xf32>) -> tensor<4x1x64xf32> {
    %0 = "ttir.reduce_or"(%arg0, %arg1) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<4x32x64xf32>, tensor<4x32x64xf32>) -> tensor<4x1x64xf32>
    return %0 : tensor<4x1x64xf32>
  }
}
