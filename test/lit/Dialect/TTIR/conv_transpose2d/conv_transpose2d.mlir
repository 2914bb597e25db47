// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @conv_transpose2d
// CHECK: %{{[0-9]+}} = "ttir.conv_transpose2d"(%arg0, %arg1, %arg2) <{dilation = 1 : i32, groups = 1 : i32, output_padding = 0 : i32, padding = 0 : i32, stride = 2 : i32}> : (tensor<1x16x16x64xf32>, tensor<64x32x2x2xf32>, tensor<1x1x1x32xf32>) -> tensor<1x32x32x32xf32>
// TTNN: "ttnn.conv_transpose2d"
// TTNN-SAME: output_padding = array<i32: 0, 0>
// TTNN-SAME: -> tensor<1x1x1024x32xf32
// TTNN: "ttnn.reshape"
// TTNN-SAME: -> tensor<1x32x32x32xf32
module {
  func.func @conv_transpose2d(%arg0: tensor<1x16x16x64xf32>, %arg1: tensor<64x32x2x2xf32>, %arg2: tensor<1x1x1x32xf32>) -> tensor<1x32x32x32xf32> {
    %0 = "ttir.conv_transpose2d"(%arg0, %arg1, %arg2) <{dilation = 1 : i32, groups = 1 : i32, output_padding = 0 : i32, padding = 0 : i32, stride = 2 : i32}> : (tensor<1x16x16x64xf32>, tensor<64x32x2x2xf32>, tensor<1x1x1x32xf32>) -> tensor<1x32x32x32xf32>
    return %0 : tensor<1x32x32x32xf32>
  }
}
