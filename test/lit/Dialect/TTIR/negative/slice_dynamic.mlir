// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// ttir.slice_dynamic takes 1-D begins and ends, one entry per input dimension; checked in upstream's words.
func.func @bounds_of_rank_two(%arg0: tensor<8x16xf32>, %arg1: tensor<2x1xi32>, %arg2: tensor<2xi32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'ttir.slice_dynamic' op Begins and ends must be 1D tensors}}
  %0 = "ttir.slice_dynamic"(%arg0, %arg1, %arg2) : (tensor<8x16xf32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----
func.func @too_few_steps(%arg0: tensor<8x16xf32>, %arg1: tensor<2xi32>, %arg2: tensor<2xi32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'ttir.slice_dynamic' op Begins, ends, and step must have the same number of elements as the input tensor rank}}
  %0 = "ttir.slice_dynamic"(%arg0, %arg1, %arg2) <{step = [1 : i32]}> : (tensor<8x16xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----
func.func @zero_step(%arg0: tensor<8x16xf32>, %arg1: tensor<2xi32>, %arg2: tensor<2xi32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'ttir.slice_dynamic' op Step value for dimension 1 cannot be zero}}
  %0 = "ttir.slice_dynamic"(%arg0, %arg1, %arg2) <{step = [1 : i32, 0 : i32]}> : (tensor<8x16xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----
func.func @rank_changed(%arg0: tensor<8x16xf32>, %arg1: tensor<2xi32>, %arg2: tensor<2xi32>) -> tensor<32xf32> {
  // expected-error @+1 {{'ttir.slice_dynamic' op Output tensor must have the same rank as the input tensor}}
  %0 = "ttir.slice_dynamic"(%arg0, %arg1, %arg2) : (tensor<8x16xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}
