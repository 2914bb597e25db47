// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// ttcore.composite must match its decomposition's signature; checked in upstream's words.
func.func @missing_decomposition(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
  // expected-error @+1 {{'ttcore.composite' op decomposition function 'nowhere' not found in parent module}}
  %0 = "ttcore.composite"(%arg0) <{composite_name = "gate", decomposition = @nowhere}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
}

// -----
func.func @wrong_input(%arg0: tensor<32x64xbf16>) -> tensor<32x64xf32> {
  // expected-error @+1 {{'ttcore.composite' op input type mismatch at index 0: composite has tensor<32x64xbf16>, decomposition expects tensor<32x64xf32>}}
  %0 = "ttcore.composite"(%arg0) <{composite_name = "gate", decomposition = @decomposition}> : (tensor<32x64xbf16>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
}
func.func private @decomposition(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
  return %arg0 : tensor<32x64xf32>
}
