// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @fill_cache
// CHECK: "ttir.fill_cache"(%arg0, %arg1) <{batch_offset = 0 : i32}> : (tensor<1x32x64x512xf32>, tensor<1x32x3x512xf32>) -> ()
// TTNN: "ttnn.fill_cache"
// TTNN-SAME: #ttnn_layout
module {
  func.func @fill_cache(%arg0: tensor<1x32x64x512xf32>, %arg1: tensor<1x32x3x512xf32>) -> tensor<1x32x64x512xf32> {
    "ttir.fill_cache"(%arg0, %arg1) <{batch_offset = 0 : i32}> : (tensor<1x32x64x512xf32>, tensor<1x32x3x512xf32>) -> ()
    return %arg0 : tensor<1x32x64x512xf32>
  }
}
