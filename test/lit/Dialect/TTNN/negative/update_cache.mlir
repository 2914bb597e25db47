// RUN: ttmlir-opt --verify-diagnostics %s

func.func @update_cache(%arg0: tensor<1x32x64x512xf32>, %arg1: tensor<1x32x1x512xf32>, %arg2: tensor<1xsi32>, %arg3: tensor<1x32x64x512xf32>) -> tensor<1x32x64x512xf32> {
  // expected-error @+1 {{'ttnn.update_cache' op expected 3 operands, but found 4}}
  "ttnn.update_cache"(%arg0, %arg1, %arg2, %arg3) <{batch_offset = 0 : i32}> : (tensor<1x32x64x512xf32>, tensor<1x32x1x512xf32>, tensor<1xsi32>, tensor<1x32x64x512xf32>) -> ()
  return %arg0 : tensor<1x32x64x512xf32>
}
