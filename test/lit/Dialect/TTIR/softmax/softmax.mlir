// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @softmax
// CHECK: %{{[0-9]+}} = "ttir.softmax"(%arg0) <{dimension = 1 : si32}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
// TTNN: "ttnn.softmax"
// TTNN-SAME: numericStable = false
// TTNN-SAME: #ttnn_layout
module {
  func.func @softmax(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.softmax"(%arg0) <{dimension = 1 : si32}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
