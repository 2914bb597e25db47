// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

module {
  func.func @to_layout(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    // expected-error @+1 {{'ttir.to_layout' op expected 2 operands, but found 1}}
    %0 = "ttir.to_layout"(%arg0) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}

// -----

module {
  func.func @to_layout(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = ttir.empty() : tensor<32x64xf32>
    // expected-error @+1 {{operand is used with type tensor<32x64xbf16>, but has been previously used or defined with type tensor<32x64xf32>}}
    %1 = ttir.to_layout %arg0, %0 : tensor<32x64xbf16> into tensor<32x64xf32> -> tensor<32x64xf32>
    return %1 : tensor<32x64xf32>
  }
}
