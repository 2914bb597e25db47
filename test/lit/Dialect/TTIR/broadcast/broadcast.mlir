// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @broadcast
// CHECK: %{{[0-9]+}} = "ttir.broadcast"(%arg0) <{broadcast_dimensions = array<i64: 32, 1>}> : (tensor<1x64xf32>) -> tensor<32x64xf32>
// TTNN: "ttnn.repeat"
// TTNN-SAME: #ttnn_layout
module {
  func.func @broadcast(%arg0: tensor<1x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.broadcast"(%arg0) <{broadcast_dimensions = array<i64: 32, 1>}> : (tensor<1x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
