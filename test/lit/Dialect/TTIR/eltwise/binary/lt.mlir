// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @lt
// CHECK: %{{[0-9]+}} = "ttir.lt"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// lt(a, b) is canonicalized to gt(b, a), as upstream does:
// TTNN: "ttnn.gt"(%arg1, %arg0)
// TTNN-SAME: #ttnn_layout
module {
  func.func @lt(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.lt"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
