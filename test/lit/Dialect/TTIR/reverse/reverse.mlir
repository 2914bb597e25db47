// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @reverse
// CHECK: %{{[0-9]+}} = "ttir.reverse"(%arg0) <{dimensions = array<i64: 0, 1>}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
// TTNN: "ttnn.reverse"
// TTNN-SAME: #ttnn_layout
module {
  func.func @reverse(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.reverse"(%arg0) <{dimensions = array<i64: 0, 1>}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
