// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @update_cache
// CHECK: "ttir.update_cache"(%arg0, %arg1, %arg2) <{batch_offset = 0 : i32}> : (tensor<1x32x64x512xf32>, tensor<1x32x1x512xf32>, tensor<1xsi32>) -> ()
// TTNN: "ttnn.paged_update_cache"
// TTNN-SAME: #ttnn_layout
module {
  func.func @update_cache(%arg0: tensor<1x32x64x512xf32>, %arg1: tensor<1x32x1x512xf32>, %arg2: tensor<1xsi32>) -> tensor<1x32x64x512xf32> {
    "ttir.update_cache"(%arg0, %arg1, %arg2) <{batch_offset = 0 : i32}> : (tensor<1x32x64x512xf32>, tensor<1x32x1x512xf32>, tensor<1xsi32>) -> ()
    return %arg0 : tensor<1x32x64x512xf32>
  }
}
