// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

func.func @argmax_dim_out_of_range(%arg0: tensor<64x64xf32>) -> tensor<64xui32> {
  // expected-error @+1 {{'ttnn.argmax' op dim attribute value -3 is out of range for input tensor of rank 2, expected value in range [-2, 1]}}
  %0 = "ttnn.argmax"(%arg0) <{dim = -3 : si32}> : (tensor<64x64xf32>) -> tensor<64xui32>
  return %0 : tensor<64xui32>
}

// -----
func.func @argmax_shape(%arg0: tensor<64x64xf32>) -> tensor<64xui32> {
  // expected-error @+1 {{'ttnn.argmax' op expected output shape (64, 1), got (64)}}
  %0 = "ttnn.argmax"(%arg0) <{dim = 1 : si32, keep_dim = true}> : (tensor<64x64xf32>) -> tensor<64xui32>
  return %0 : tensor<64xui32>
}

// -----
func.func @prod_rank5(%arg0: tensor<2x2x2x2x2xf32>) -> tensor<2x2x2x2xf32> {
  // expected-error @+1 {{'ttnn.prod' op Input tensor rank is greater than 4 for reduce(product).}}
  %0 = "ttnn.prod"(%arg0) <{dim_arg = 0 : si64, keep_dim = false}> : (tensor<2x2x2x2x2xf32>) -> tensor<2x2x2x2xf32>
  return %0 : tensor<2x2x2x2xf32>
}
