// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @avg_pool2d
// CHECK: %{{[0-9]+}} = "ttir.avg_pool2d"(%arg0) <{ceil_mode = false, count_include_pad = true, dilation = array<i32: 1, 1>, kernel = array<i32: 3, 3>, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32>
// TTNN: "ttnn.reshape"
// TTNN-SAME: -> tensor<1x1x1024x64xf32
// TTNN: "ttnn.avg_pool2d"
// TTNN-SAME: batch_size = 1 : si32, ceil_mode = false, channels = 64 : si32, count_include_pad = true
// TTNN-SAME: input_height = 32 : si32, input_width = 32 : si32, kernel_size = array<i32: 3, 3>
// TTNN: "ttnn.reshape"
// TTNN-SAME: -> tensor<1x32x32x64xf32
module {
  func.func @avg_pool2d(%arg0: tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32> {
    %0 = "ttir.avg_pool2d"(%arg0) <{ceil_mode = false, count_include_pad = true, dilation = array<i32: 1, 1>, kernel = array<i32: 3, 3>, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32>
    return %0 : tensor<1x32x32x64xf32>
  }
}
