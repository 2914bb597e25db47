// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @bitwise_or
// CHECK: %{{[0-9]+}} = "ttir.bitwise_or"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
// TTNN: "ttnn.bitwise_or"
// TTNN-SAME: #ttnn_layout
module {
  func.func @bitwise_or(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttir.bitwise_or"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
}
