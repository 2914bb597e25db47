// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.to_layout' op requires a single operand}}
module {
  func.func @to_layout(%arg0: tensor<32x64xf32>, %arg1: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.to_layout"(%arg0, %arg1) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
