// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @cumsum
// CHECK: %{{[0-9]+}} = "ttir.cumsum"(%arg0) <{dim = 1 : i64}> : (tensor<4x32xf32>) -> tensor<4x32xf32>
// TTNN: "ttnn.cumsum"
// TTNN-SAME: #ttnn_layout
module {
  func.func @cumsum(%arg0: tensor<4x32xf32>) -> tensor<4x32xf32> {
    %0 = "ttir.cumsum"(%arg0) <{dim = 1 : i64}> : (tensor<4x32xf32>) -> tensor<4x32xf32>
    return %0 : tensor<4x32xf32>
  }
}
