// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// ttir.sort and ttir.topk are checked in upstream's words.
func.func @sort_dim_out_of_range(%arg0: tensor<16x40xf32>) -> (tensor<16x40xf32>, tensor<16x40xi32>) {
  // expected-error @+1 {{'ttir.sort' op Dimension out of range (expected to be in range of [-2, 1], but got 2)}}
  %0, %1 = "ttir.sort"(%arg0) <{dim = 2 : si32}> : (tensor<16x40xf32>) -> (tensor<16x40xf32>, tensor<16x40xi32>)
  return %0, %1 : tensor<16x40xf32>, tensor<16x40xi32>
}

// -----
func.func @sort_one_result(%arg0: tensor<16x40xf32>) -> tensor<16x40xf32> {
  // expected-error @+1 {{'ttir.sort' op expected 2 results}}
  %0 = "ttir.sort"(%arg0) : (tensor<16x40xf32>) -> tensor<16x40xf32>
  return %0 : tensor<16x40xf32>
}

// -----
func.func @sort_float_indices(%arg0: tensor<16x40xf32>) -> (tensor<16x40xf32>, tensor<16x40xf32>) {
  // expected-error @+1 {{'ttir.sort' op Expected integer data type for indices but got 'f32'}}
  %0, %1 = "ttir.sort"(%arg0) : (tensor<16x40xf32>) -> (tensor<16x40xf32>, tensor<16x40xf32>)
  return %0, %1 : tensor<16x40xf32>, tensor<16x40xf32>
}

// -----
func.func @sort_values_retyped(%arg0: tensor<16x40xf32>) -> (tensor<16x40xbf16>, tensor<16x40xi32>) {
  // expected-error @+1 {{'ttir.sort' op Sorted tensor type does not match with input tensor.}}
  %0, %1 = "ttir.sort"(%arg0) : (tensor<16x40xf32>) -> (tensor<16x40xbf16>, tensor<16x40xi32>)
  return %0, %1 : tensor<16x40xbf16>, tensor<16x40xi32>
}

// -----
func.func @sort_indices_reshaped(%arg0: tensor<16x40xf32>) -> (tensor<16x40xf32>, tensor<640xi32>) {
  // expected-error @+1 {{'ttir.sort' op Indices shape does not match with input tensor shape.}}
  %0, %1 = "ttir.sort"(%arg0) : (tensor<16x40xf32>) -> (tensor<16x40xf32>, tensor<640xi32>)
  return %0, %1 : tensor<16x40xf32>, tensor<640xi32>
}

// -----
func.func @topk_k_too_large(%arg0: tensor<4x8x20xf32>) -> (tensor<4x8x21xf32>, tensor<4x8x21xi32>) {
  // expected-error @+1 {{'ttir.topk' op K should be between 1 and the size of the specified dimension (2), but got: 21}}
  %0, %1 = "ttir.topk"(%arg0) <{k = 21 : i32}> : (tensor<4x8x20xf32>) -> (tensor<4x8x21xf32>, tensor<4x8x21xi32>)
  return %0, %1 : tensor<4x8x21xf32>, tensor<4x8x21xi32>
}

// -----
func.func @topk_dim_out_of_range(%arg0: tensor<4x8x20xf32>) -> (tensor<4x8x2xf32>, tensor<4x8x2xi32>) {
  // expected-error @+1 {{'ttir.topk' op specified dimension should be between -3 and 2, but got: -4}}
  %0, %1 = "ttir.topk"(%arg0) <{k = 2 : i32, dim = -4 : i32}> : (tensor<4x8x20xf32>) -> (tensor<4x8x2xf32>, tensor<4x8x2xi32>)
  return %0, %1 : tensor<4x8x2xf32>, tensor<4x8x2xi32>
}

// -----
func.func @topk_wrong_result_shape(%arg0: tensor<4x8x20xf32>) -> (tensor<4x8x3xf32>, tensor<4x8x3xi32>) {
  // expected-error @+1 {{'ttir.topk' op result #0 shape (4x8x3) does not match the expected shape (4x8x2)}}
  %0, %1 = "ttir.topk"(%arg0) <{k = 2 : i32}> : (tensor<4x8x20xf32>) -> (tensor<4x8x3xf32>, tensor<4x8x3xi32>)
  return %0, %1 : tensor<4x8x3xf32>, tensor<4x8x3xi32>
}

// -----
// Each function is verified on its own, so both of these report.
func.func @first(%arg0: tensor<4x8x20xf32>) -> (tensor<5x8x20xf32>, tensor<5x8x20xi32>) {
  // expected-error @+1 {{'ttir.topk' op K should be between 1 and the size of the specified dimension (0), but got: 5}}
  %0, %1 = "ttir.topk"(%arg0) <{k = 5 : i32, dim = 0 : i32}> : (tensor<4x8x20xf32>) -> (tensor<5x8x20xf32>, tensor<5x8x20xi32>)
  return %0, %1 : tensor<5x8x20xf32>, tensor<5x8x20xi32>
}
func.func @second(%arg0: tensor<16x40xf32>) -> (tensor<16x40xf32>, tensor<16x40xi32>) {
  // expected-error @+1 {{'ttir.sort' op Dimension out of range (expected to be in range of [-2, 1], but got -3)}}
  %0, %1 = "ttir.sort"(%arg0) <{dim = -3 : si32}> : (tensor<16x40xf32>) -> (tensor<16x40xf32>, tensor<16x40xi32>)
  return %0, %1 : tensor<16x40xf32>, tensor<16x40xi32>
}
