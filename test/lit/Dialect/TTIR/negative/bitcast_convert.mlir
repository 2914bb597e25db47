// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// ttir.bitcast_convert reinterprets bits: element types of one width only.
func.func @wider_result(%arg0: tensor<8x16xbf16>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'ttir.bitcast_convert' op Input and output tensor element types must have the same bit width}}
  %0 = "ttir.bitcast_convert"(%arg0) : (tensor<8x16xbf16>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----
func.func @index_elements(%arg0: tensor<8x16xindex>) -> tensor<8x16xi64> {
  // expected-error @+1 {{'ttir.bitcast_convert' op Input tensor type must be an integer or floating point type}}
  %0 = "ttir.bitcast_convert"(%arg0) : (tensor<8x16xindex>) -> tensor<8x16xi64>
  return %0 : tensor<8x16xi64>
}
