// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @hardsigmoid
// CHECK: %{{[0-9]+}} = "ttir.hardsigmoid"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.hardsigmoid"
// TTNN-SAME: #ttnn_layout
module {
  func.func @hardsigmoid(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.hardsigmoid"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
