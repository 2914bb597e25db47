// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @embedding
// CHECK: %{{[0-9]+}} = "ttnn.embedding"(%arg0, %arg1) : (tensor<32x16xsi32>, tensor<512x128xf32>) -> tensor<32x16x128xf32>
module {
  func.func @embedding(%arg0: tensor<32x16xsi32>, %arg1: tensor<512x128xf32>) -> tensor<32x16x128xf32> {
    %0 = "ttnn.embedding"(%arg0, %arg1) : (tensor<32x16xsi32>, tensor<512x128xf32>) -> tensor<32x16x128xf32>
    return %0 : tensor<32x16x128xf32>
  }
}
