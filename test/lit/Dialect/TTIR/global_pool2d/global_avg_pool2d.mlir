// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @global_avg_pool2d
// CHECK: %{{[0-9]+}} = "ttir.global_avg_pool2d"(%arg0) : (tensor<1x7x7x512xf32>) -> tensor<1x1x1x512xf32>
// TTNN: "ttnn.global_avg_pool2d"
// TTNN-SAME: #ttnn_layout
module {
  func.func @global_avg_pool2d(%arg0: tensor<1x7x7x512xf32>) -> tensor<1x1x1x512xf32> {
    %0 = "ttir.global_avg_pool2d"(%arg0) : (tensor<1x7x7x512xf32>) -> tensor<1x1x1x512xf32>
    return %0 : tensor<1x1x1x512xf32>
  }
}
