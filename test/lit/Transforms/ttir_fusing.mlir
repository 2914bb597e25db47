// RUN: ttmlir-opt --ttir-fusing --split-input-file %s | FileCheck %s

// A matmul whose only use is a bias add becomes one linear, at the add's location.
// CHECK-LABEL: func.func @matmul_bias
// CHECK-NOT: "ttir.matmul"
// CHECK: %[[R:[0-9]+]] = "ttir.linear"(%arg0, %arg1, %arg2) <{transpose_a = false, transpose_b = true}> : (tensor<32x64xf32>, tensor<128x64xf32>, tensor<1x128xf32>) -> tensor<32x128xf32>
// CHECK-NOT: "ttir.add"
// CHECK: return %[[R]]
module {
  func.func @matmul_bias(%arg0: tensor<32x64xf32>, %arg1: tensor<128x64xf32>, %arg2: tensor<1x128xf32>) -> tensor<32x128xf32> {
    %0 = "ttir.matmul"(%arg0, %arg1) <{transpose_a = false, transpose_b = true}> : (tensor<32x64xf32>, tensor<128x64xf32>) -> tensor<32x128xf32>
    %1 = "ttir.add"(%arg2, %0) : (tensor<1x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    return %1 : tensor<32x128xf32>
  }
}

// -----

// The matmul result is used twice, so fusing would compute it twice: left alone.
// CHECK-LABEL: func.func @shared_matmul
// CHECK: "ttir.matmul"
// CHECK: "ttir.add"
// CHECK-NOT: "ttir.linear"
module {
  func.func @shared_matmul(%arg0: tensor<32x64xf32>, %arg1: tensor<64x128xf32>, %arg2: tensor<32x128xf32>) -> (tensor<32x128xf32>, tensor<32x128xf32>) {
    %0 = "ttir.matmul"(%arg0, %arg1) : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
    %1 = "ttir.add"(%0, %arg2) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    return %0, %1 : tensor<32x128xf32>, tensor<32x128xf32>
  }
}
