// RUN: ttmlir-opt --verify-diagnostics %s

func.func @fill_cache(%arg0: tensor<1x32x64x512xf32>, %arg1: tensor<1x32x3x512xf32>, %arg2: tensor<1x32x64x512xf32>) -> tensor<1x32x64x512xf32> {
  // expected-error @+1 {{'ttnn.fill_cache' op expected 2 operands, but found 3}}
  "ttnn.fill_cache"(%arg0, %arg1, %arg2) <{batch_offset = 0 : i32}> : (tensor<1x32x64x512xf32>, tensor<1x32x3x512xf32>, tensor<1x32x64x512xf32>) -> ()
  return %arg0 : tensor<1x32x64x512xf32>
}
