// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @le
// CHECK: %{{[0-9]+}} = "ttir.le"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// le(a, b) is canonicalized to ge(b, a), as upstream does:
// TTNN: "ttnn.ge"(%arg1, %arg0)
// TTNN-SAME: #ttnn_layout
module {
  func.func @le(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.le"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
