// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @index
// CHECK: %{{[0-9]+}} = "ttir.index"(%arg0) <{begin = 0 : i32, dim = 1 : i32, end = 32 : i32, step = 2 : i32}> : (tensor<8x64xf32>) -> tensor<8x16xf32>
// TTNN: "ttnn.slice_static"
// TTNN-SAME: #ttnn_layout
module {
  func.func @index(%arg0: tensor<8x64xf32>) -> tensor<8x16xf32> {
    %0 = "ttir.index"(%arg0) <{begin = 0 : i32, dim = 1 : i32, end = 32 : i32, step = 2 : i32}> : (tensor<8x64xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
