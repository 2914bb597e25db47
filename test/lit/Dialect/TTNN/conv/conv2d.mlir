// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @conv2d
// CHECK: %{{[0-9]+}} = "ttnn.conv2d"(%arg0, %arg1, %arg2, %arg3) <{batch_size = 1 : i32, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 64 : i32, input_height = 32 : i32, input_width = 32 : i32, kernel_size = array<i32: 3, 3>, operandSegmentSizes = array<i32: 1, 1, 1, 1>, out_channels = 64 : i32, padding = array<i32: 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x1x1024x64xf32>, tensor<64x64x3x3xf32>, tensor<1x1x1x64xf32>, !ttnn.device) -> tensor<1x1x1024x64xf32>
module {
  func.func @conv2d(%arg0: tensor<1x1x1024x64xf32>, %arg1: tensor<64x64x3x3xf32>, %arg2: tensor<1x1x1x64xf32>, %arg3: !ttnn.device) -> tensor<1x1x1024x64xf32> {
    %0 = "ttnn.conv2d"(%arg0, %arg1, %arg2, %arg3) <{batch_size = 1 : i32, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 64 : i32, input_height = 32 : i32, input_width = 32 : i32, kernel_size = array<i32: 3, 3>, operandSegmentSizes = array<i32: 1, 1, 1, 1>, out_channels = 64 : i32, padding = array<i32: 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x1x1024x64xf32>, tensor<64x64x3x3xf32>, tensor<1x1x1x64xf32>, !ttnn.device) -> tensor<1x1x1024x64xf32>
    return %0 : tensor<1x1x1024x64xf32>
  }
}
