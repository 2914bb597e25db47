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
  // expected-note @+1 {{prior use here}}
  func.func @to_layout(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = ttir.empty() : tensor<32x64xf32>
    // expected-error @+1 {{use of value '%arg0' expects different type than prior uses: 'tensor<32x64xbf16>' vs 'tensor<32x64xf32>'}}
    %1 = ttir.to_layout %arg0, %0 : tensor<32x64xbf16> into tensor<32x64xf32> -> tensor<32x64xf32>
    return %1 : tensor<32x64xf32>
  }
}
