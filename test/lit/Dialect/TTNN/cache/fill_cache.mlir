// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @fill_cache
// CHECK: "ttnn.fill_cache"(%arg0, %arg1) <{batch_offset = 0 : i32}> : (tensor<1x32x64x512xf32>, tensor<1x32x3x512xf32>) -> ()
module {
  func.func @fill_cache(%arg0: tensor<1x32x64x512xf32>, %arg1: tensor<1x32x3x512xf32>) -> tensor<1x32x64x512xf32> {
    "ttnn.fill_cache"(%arg0, %arg1) <{batch_offset = 0 : i32}> : (tensor<1x32x64x512xf32>, tensor<1x32x3x512xf32>) -> ()
    return %arg0 : tensor<1x32x64x512xf32>
  }
}
