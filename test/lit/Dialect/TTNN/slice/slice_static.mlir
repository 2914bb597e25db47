// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @slice_static
// CHECK: %{{[0-9]+}} = "ttnn.slice_static"(%arg0) <{begins = [0 : i32, 16 : i32], ends = [8 : i32, 64 : i32], step = [2 : i32, 1 : i32]}> : (tensor<8x64xf32>) -> tensor<4x48xf32>
module {
  func.func @slice_static(%arg0: tensor<8x64xf32>) -> tensor<4x48xf32> {
    %0 = "ttnn.slice_static"(%arg0) <{begins = [0 : i32, 16 : i32], ends = [8 : i32, 64 : i32], step = [2 : i32, 1 : i32]}> : (tensor<8x64xf32>) -> tensor<4x48xf32>
    return %0 : tensor<4x48xf32>
  }
}
