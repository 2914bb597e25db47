// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @conv2d
// CHECK: %{{[0-9]+}} = "ttir.conv2d"(%arg0, %arg1, %arg2) <{dilation = 1 : i32, groups = 1 : i32, padding = 1 : i32, stride = 1 : i32}> : (tensor<1x32x32x64xf32>, tensor<64x64x3x3xf32>, tensor<1x1x1x64xf32>) -> tensor<1x32x32x64xf32>
// TTNN: "ttnn.reshape"
// TTNN-SAME: -> tensor<1x1x1024x64xf32
// TTNN: "ttnn.conv2d"(%{{[0-9]+}}, %{{.*}}, %{{.*}}, %{{[0-9]+}})
// TTNN-SAME: batch_size = 1 : i32
// TTNN-SAME: in_channels = 64 : i32, input_height = 32 : i32, input_width = 32 : i32, kernel_size = array<i32: 3, 3>, out_channels = 64 : i32, padding = array<i32: 1, 1>
// TTNN: "ttnn.reshape"
// TTNN-SAME: -> tensor<1x32x32x64xf32
module {
  func.func @conv2d(%arg0: tensor<1x32x32x64xf32>, %arg1: tensor<64x64x3x3xf32>, %arg2: tensor<1x1x1x64xf32>) -> tensor<1x32x32x64xf32> {
    %0 = "ttir.conv2d"(%arg0, %arg1, %arg2) <{dilation = 1 : i32, groups = 1 : i32, padding = 1 : i32, stride = 1 : i32}> : (tensor<1x32x32x64xf32>, tensor<64x64x3x3xf32>, tensor<1x1x1x64xf32>) -> tensor<1x32x32x64xf32>
    return %0 : tensor<1x32x32x64xf32>
  }
}
