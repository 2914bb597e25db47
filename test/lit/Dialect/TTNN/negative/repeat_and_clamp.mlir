// RUN: not ttmlir-opt --split-input-file %s 2>&1 | FileCheck %s
// ttnn.repeat and ttnn.clamp_scalar are verified in upstream TTNN's words.

// CHECK: error: 'ttnn.repeat' op Input tensor shape (4,32) at index 1 does not repeat to output (4,96) using repeat value 2.
func.func @wrong_output(%arg0: tensor<4x32xbf16>) -> tensor<4x96xbf16> {
  %0 = "ttnn.repeat"(%arg0) <{repeat_dims = #ttnn.shape<1x2>}> : (tensor<4x32xbf16>) -> tensor<4x96xbf16>
  return %0 : tensor<4x96xbf16>
}

// -----
// CHECK: error: 'ttnn.repeat' op Repeat dimension at index 1 must be greater than 0.
func.func @zero_repeat(%arg0: tensor<4x32xbf16>) -> tensor<4x0xbf16> {
  %0 = "ttnn.repeat"(%arg0) <{repeat_dims = #ttnn.shape<1x0>}> : (tensor<4x32xbf16>) -> tensor<4x0xbf16>
  return %0 : tensor<4x0xbf16>
}

// -----
// CHECK: error: 'ttnn.clamp_scalar' op input and output must have same shape.
func.func @clamp_reshapes(%arg0: tensor<4x32xbf16>) -> tensor<32x4xbf16> {
  %0 = "ttnn.clamp_scalar"(%arg0) <{max = 1.000000e+00 : f32, min = 0.000000e+00 : f32}> : (tensor<4x32xbf16>) -> tensor<32x4xbf16>
  return %0 : tensor<32x4xbf16>
}
