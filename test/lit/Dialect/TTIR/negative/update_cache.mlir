// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.update_cache' op expected 3 operands, but found 4}}
module {
  func.func @update_cache(%arg0: tensor<1x32x64x512xf32>, %arg1: tensor<1x32x1x512xf32>, %arg2: tensor<1xsi32>, %arg3: tensor<1x32x64x512xf32>) -> tensor<1x32x64x512xf32> {
    "ttir.update_cache"(%arg0, %arg1, %arg2, %arg3) <{batch_offset = 0 : i32}> : (tensor<1x32x64x512xf32>, tensor<1x32x1x512xf32>, tensor<1xsi32>, tensor<1x32x64x512xf32>) -> ()
    return %arg0 : tensor<1x32x64x512xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.update_cache' op requires attribute 'batch_offset'}}
module {
  func.func @update_cache(%arg0: tensor<1x32x64x512xf32>, %arg1: tensor<1x32x1x512xf32>, %arg2: tensor<1xsi32>) -> tensor<1x32x64x512xf32> {
    "ttir.update_cache"(%arg0, %arg1, %arg2) : (tensor<1x32x64x512xf32>, tensor<1x32x1x512xf32>, tensor<1xsi32>) -> ()
    return %arg0 : tensor<1x32x64x512xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.update_cache' op attribute 'batch_offset' failed to satisfy constraint}}
module {
  func.func @update_cache(%arg0: tensor<1x32x64x512xf32>, %arg1: tensor<1x32x1x512xf32>, %arg2: tensor<1xsi32>) -> tensor<1x32x64x512xf32> {
    "ttir.update_cache"(%arg0, %arg1, %arg2) <{batch_offset = "oops"}> : (tensor<1x32x64x512xf32>, tensor<1x32x1x512xf32>, tensor<1xsi32>) -> ()
    return %arg0 : tensor<1x32x64x512xf32>
  }
}
