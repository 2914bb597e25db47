// RUN: ttmlir-opt --ttir-explicate-tms %s | FileCheck %s

// The lower-rank bias is reshaped to the result's rank, then broadcast; the full-size operand is left alone.
// CHECK-LABEL: func.func @bias
// CHECK: %[[R:.*]] = "ttir.reshape"(%arg1) <{shape = [1 : i32, 1 : i32, 64 : i32]}>
// CHECK: %[[B:.*]] = "ttir.broadcast"(%[[R]]) <{broadcast_dimensions = array<i64: 2, 8, 1>}>
// CHECK: "ttir.add"(%arg0, %[[B]])
func.func @bias(%arg0: tensor<2x8x64xf32>, %arg1: tensor<64xf32>) -> tensor<2x8x64xf32> {
  %0 = "ttir.add"(%arg0, %arg1) : (tensor<2x8x64xf32>, tensor<64xf32>) -> tensor<2x8x64xf32>
  return %0 : tensor<2x8x64xf32>
}
