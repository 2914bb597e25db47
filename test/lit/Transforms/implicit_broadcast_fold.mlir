// RUN: ttmlir-opt --ttir-implicit-broadcast-fold %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% enable-implicit-broadcast-folding-pass=false" %s | FileCheck %s --check-prefix=KEPT
// Elementwise ops broadcast their operands implicitly: explicit broadcasts into them are dropped, and an op left
// with no full-size operand computes on the smaller shape, broadcast once after it (and after later
// elementwise ops too).

// CHECK-LABEL: func.func @one_side
// CHECK-NOT: "ttir.broadcast"
// CHECK: "ttir.add"(%arg0, %arg1) : (tensor<4x16x32xf32>, tensor<4x1x32xf32>) -> tensor<4x16x32xf32>
// KEPT-LABEL: func.func @one_side
// KEPT: "ttnn.repeat"
func.func @one_side(%arg0: tensor<4x16x32xf32>, %arg1: tensor<4x1x32xf32>) -> tensor<4x16x32xf32> {
  %0 = "ttir.broadcast"(%arg1) <{broadcast_dimensions = array<i64: 1, 16, 1>}> : (tensor<4x1x32xf32>) -> tensor<4x16x32xf32>
  %1 = "ttir.add"(%arg0, %0) : (tensor<4x16x32xf32>, tensor<4x16x32xf32>) -> tensor<4x16x32xf32>
  return %1 : tensor<4x16x32xf32>
}

// CHECK-LABEL: func.func @both_sides
// CHECK: %[[SUM:.*]] = "ttir.multiply"(%arg0, %arg1) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
// CHECK: %[[EXP:.*]] = "ttir.exp"(%[[SUM]]) : (tensor<1x32xf32>) -> tensor<1x32xf32>
// CHECK: "ttir.broadcast"(%[[EXP]]) <{broadcast_dimensions = array<i64: 64, 1>}> {{.*}} -> tensor<64x32xf32>
func.func @both_sides(%arg0: tensor<1x32xf32>, %arg1: tensor<1x32xf32>) -> tensor<64x32xf32> {
  %0 = "ttir.broadcast"(%arg0) <{broadcast_dimensions = array<i64: 64, 1>}> : (tensor<1x32xf32>) -> tensor<64x32xf32>
  %1 = "ttir.broadcast"(%arg1) <{broadcast_dimensions = array<i64: 64, 1>}> : (tensor<1x32xf32>) -> tensor<64x32xf32>
  %2 = "ttir.multiply"(%0, %1) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  %3 = "ttir.exp"(%2) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %3 : tensor<64x32xf32>
}

// A broadcast with other users stays for them.
// CHECK-LABEL: func.func @shared
// CHECK: %[[B:.*]] = "ttir.broadcast"(%arg1)
// CHECK: "ttir.subtract"(%arg0, %arg1)
// CHECK: return {{.*}}%[[B]]
func.func @shared(%arg0: tensor<8x32xf32>, %arg1: tensor<1x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %0 = "ttir.broadcast"(%arg1) <{broadcast_dimensions = array<i64: 8, 1>}> : (tensor<1x32xf32>) -> tensor<8x32xf32>
  %1 = "ttir.subtract"(%arg0, %0) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  return %1, %0 : tensor<8x32xf32>, tensor<8x32xf32>
}
