// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.fill_cache' op expected 2 operands, but found 3}}
module {
  func.func @fill_cache(%arg0: tensor<1x32x64x512xf32>, %arg1: tensor<1x32x3x512xf32>, %arg2: tensor<1x32x64x512xf32>) -> tensor<1x32x64x512xf32> {
    "ttir.fill_cache"(%arg0, %arg1, %arg2) <{batch_offset = 0 : i32}> : (tensor<1x32x64x512xf32>, tensor<1x32x3x512xf32>, tensor<1x32x64x512xf32>) -> ()
    return %arg0 : tensor<1x32x64x512xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.fill_cache' op requires attribute 'batch_offset'}}
module {
  func.func @fill_cache(%arg0: tensor<1x32x64x512xf32>, %arg1: tensor<1x32x3x512xf32>) -> tensor<1x32x64x512xf32> {
    "ttir.fill_cache"(%arg0, %arg1) : (tensor<1x32x64x512xf32>, tensor<1x32x3x512xf32>) -> ()
    return %arg0 : tensor<1x32x64x512xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.fill_cache' op attribute 'batch_offset' failed to satisfy constraint}}
module {
  func.func @fill_cache(%arg0: tensor<1x32x64x512xf32>, %arg1: tensor<1x32x3x512xf32>) -> tensor<1x32x64x512xf32> {
    "ttir.fill_cache"(%arg0, %arg1) <{batch_offset = "oops"}> : (tensor<1x32x64x512xf32>, tensor<1x32x3x512xf32>) -> ()
    return %arg0 : tensor<1x32x64x512xf32>
  }
}
