// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @to_layout
// CHECK: %{{[0-9]+}} = "ttir.to_layout"(%arg0) : (tensor<32x64xf32>) -> tensor<32x64xf32>
// TTNN-NOT: "ttir.to_layout"
// TTNN: return %arg0 : tensor<32x64xf32, #ttnn_layout>
module {
  func.func @to_layout(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.to_layout"(%arg0) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
