// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @exp2
// CHECK: %{{[0-9]+}} = "ttir.exp2"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.exp2"
// TTNN-SAME: #ttnn_layout
module {
  func.func @exp2(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.exp2"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
