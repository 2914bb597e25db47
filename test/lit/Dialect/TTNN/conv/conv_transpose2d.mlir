// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @conv_transpose2d
// CHECK: %{{[0-9]+}} = "ttnn.conv_transpose2d"(%arg0, %arg1, %arg2, %arg3) <{batch_size = 1 : i32, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 64 : i32, input_height = 16 : i32, input_width = 16 : i32, kernel_size = array<i32: 2, 2>, operandSegmentSizes = array<i32: 1, 1, 1, 1>, out_channels = 32 : i32, output_padding = array<i32: 0, 0>, padding = array<i32: 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x1x256x64xf32>, tensor<64x32x2x2xf32>, tensor<1x1x1x32xf32>, !ttnn.device) -> tensor<1x1x1024x32xf32>
module {
  func.func @conv_transpose2d(%arg0: tensor<1x1x256x64xf32>, %arg1: tensor<64x32x2x2xf32>, %arg2: tensor<1x1x1x32xf32>, %arg3: !ttnn.device) -> tensor<1x1x1024x32xf32> {
    %0 = "ttnn.conv_transpose2d"(%arg0, %arg1, %arg2, %arg3) <{batch_size = 1 : i32, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 64 : i32, input_height = 16 : i32, input_width = 16 : i32, kernel_size = array<i32: 2, 2>, operandSegmentSizes = array<i32: 1, 1, 1, 1>, out_channels = 32 : i32, output_padding = array<i32: 0, 0>, padding = array<i32: 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x1x256x64xf32>, tensor<64x32x2x2xf32>, tensor<1x1x1x32xf32>, !ttnn.device) -> tensor<1x1x1024x32xf32>
    return %0 : tensor<1x1x1024x32xf32>
  }
}
