// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @max_pool2d
// CHECK: %{{[0-9]+}} = "ttir.max_pool2d"(%arg0) <{ceil_mode = false, dilation = array<i32: 1, 1>, kernel = array<i32: 2, 2>, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x32x32x64xf32>) -> tensor<1x16x16x64xf32>
// The pooling kernel reads and writes row-major bf16: cast and untilize before, retile and cast back after.
// TTNN: "ttnn.typecast"
// TTNN-SAME: -> tensor<1x1x1024x64xbf16
// TTNN: "ttnn.to_layout"
// TTNN-SAME: -> tensor<1x1x1024x64xbf16
// TTNN: "ttnn.max_pool2d"
// TTNN-SAME: kernel_size = array<i32: 2, 2>
// TTNN-SAME: -> tensor<1x1x256x64xbf16
// A row-major bf16 result is tilized and cast back to f32 at once.
// TTNN: "ttnn.to_layout"
// TTNN-SAME: -> tensor<1x1x256x64xf32
// TTNN: "ttnn.reshape"
// TTNN-SAME: -> tensor<1x16x16x64xf32
module {
  func.func @max_pool2d(%arg0: tensor<1x32x32x64xf32>) -> tensor<1x16x16x64xf32> {
    %0 = "ttir.max_pool2d"(%arg0) <{ceil_mode = false, dilation = array<i32: 1, 1>, kernel = array<i32: 2, 2>, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x32x32x64xf32>) -> tensor<1x16x16x64xf32>
    return %0 : tensor<1x16x16x64xf32>
  }
}
