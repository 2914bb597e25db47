// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @index_select
// CHECK: %{{[0-9]+}} = "ttir.index_select"(%arg0) <{begin = 0 : si32, dim = 1 : si32, length = 2 : si32, stride = 4 : si32}> : (tensor<8x64xf32>) -> tensor<8x32xf32>
// TTNN: "ttnn.reshape"
// TTNN-SAME: -> tensor<8x16x4xf32
// TTNN: "ttnn.slice_static"
// TTNN-SAME: begins = [0 : i32, 0 : i32, 0 : i32], ends = [8 : i32, 16 : i32, 2 : i32]
// TTNN: "ttnn.reshape"
// TTNN-SAME: -> tensor<8x32xf32
module {
  func.func @index_select(%arg0: tensor<8x64xf32>) -> tensor<8x32xf32> {
    %0 = "ttir.index_select"(%arg0) <{begin = 0 : si32, dim = 1 : si32, length = 2 : si32, stride = 4 : si32}> : (tensor<8x64xf32>) -> tensor<8x32xf32>
    return %0 : tensor<8x32xf32>
  }
}
