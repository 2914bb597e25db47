// RUN: ttmlir-opt --split-input-file --ttir-to-ttnn-backend-pipeline %s | FileCheck %s

// torch-style ttir.gather becomes ttnn.gather with an si32 dim.
// CHECK-LABEL: func.func @gather_rows
// CHECK: "ttnn.gather"(%arg0, %arg1) <{dim = -2 : si32}>
func.func @gather_rows(%arg0: tensor<50x3xf32>, %arg1: tensor<7x3xui32>) -> tensor<7x3xf32> {
  %0 = "ttir.gather"(%arg0, %arg1) <{dim = -2 : i32}> : (tensor<50x3xf32>, tensor<7x3xui32>) -> tensor<7x3xf32>
  return %0 : tensor<7x3xf32>
}

// -----
// tt-metal gathers rank >= 2 only: a rank-1 gather runs on (1, n) views.
// CHECK-LABEL: func.func @gather_vector
// CHECK: "ttnn.reshape"(%arg0) <{shape = [1 : i32, 40 : i32]}>
// CHECK: "ttnn.reshape"(%arg1) <{shape = [1 : i32, 9 : i32]}>
// CHECK: "ttnn.gather"({{.*}}) <{dim = 1 : si32}>
// CHECK: "ttnn.reshape"({{.*}}) <{shape = [9 : i32]}>
func.func @gather_vector(%arg0: tensor<40xf32>, %arg1: tensor<9xui32>) -> tensor<9xf32> {
  %0 = "ttir.gather"(%arg0, %arg1) <{dim = 0 : i32}> : (tensor<40xf32>, tensor<9xui32>) -> tensor<9xf32>
  return %0 : tensor<9xf32>
}
