// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.global_avg_pool2d' op requires a single operand}}
module {
  func.func @global_avg_pool2d(%arg0: tensor<1x7x7x512xf32>, %arg1: tensor<1x7x7x512xf32>) -> tensor<1x1x1x512xf32> {
    %0 = "ttir.global_avg_pool2d"(%arg0, %arg1) : (tensor<1x7x7x512xf32>, tensor<1x7x7x512xf32>) -> tensor<1x1x1x512xf32>
    return %0 : tensor<1x1x1x512xf32>
  }
}
