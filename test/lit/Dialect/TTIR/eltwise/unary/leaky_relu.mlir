// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @leaky_relu
// CHECK: %{{[0-9]+}} = "ttir.leaky_relu"(%arg0) <{parameter = 0.00999999977 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.leaky_relu"
// TTNN-SAME: #ttnn_layout
module {
  func.func @leaky_relu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.leaky_relu"(%arg0) <{parameter = 0.00999999977 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
