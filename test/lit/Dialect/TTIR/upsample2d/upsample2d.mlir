// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @upsample2d
// CHECK: %{{[0-9]+}} = "ttir.upsample2d"(%arg0) <{mode = "nearest", scale_factor = 2 : si32}> : (tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32>
// TTNN: "ttnn.upsample"
// TTNN-SAME: #ttnn_layout
module {
  func.func @upsample2d(%arg0: tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32> {
    %0 = "ttir.upsample2d"(%arg0) <{mode = "nearest", scale_factor = 2 : si32}> : (tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32>
    return %0 : tensor<1x32x32x32xf32>
  }
}
