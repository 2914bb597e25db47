// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @reshape
// CHECK: %{{[0-9]+}} = "ttnn.reshape"(%arg0) <{shape = [128 : i32, 64 : i32]}> : (tensor<4x32x64xf32>) -> tensor<128x64xf32>
module {
  func.func @reshape(%arg0: tensor<4x32x64xf32>) -> tensor<128x64xf32> {
    %0 = "ttnn.reshape"(%arg0) <{shape = [128 : i32, 64 : i32]}> : (tensor<4x32x64xf32>) -> tensor<128x64xf32>
    return %0 : tensor<128x64xf32>
  }
}
