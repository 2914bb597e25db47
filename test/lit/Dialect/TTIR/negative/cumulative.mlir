// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// ttir.cumsum and ttir.cumprod take a dimension in [-rank, rank).
func.func @cumprod_dim_too_large(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'ttir.cumprod' op specified dimension should be between -2 and 1, but got: 2}}
  %0 = "ttir.cumprod"(%arg0) <{dim = 2 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----
func.func @cumsum_dim_too_small(%arg0: tensor<4x8x2xbf16>) -> tensor<4x8x2xbf16> {
  // expected-error @+1 {{'ttir.cumsum' op specified dimension should be between -3 and 2, but got: -4}}
  %0 = "ttir.cumsum"(%arg0) <{dim = -4 : i64}> : (tensor<4x8x2xbf16>) -> tensor<4x8x2xbf16>
  return %0 : tensor<4x8x2xbf16>
}
