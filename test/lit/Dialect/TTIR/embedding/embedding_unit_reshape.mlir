// RUN: ttmlir-opt --canonicalize %s | FileCheck %s
// An embedding looks its rows up through a reshape that only moves unit dims of the indices; it keeps the reshape
// when the indices it would read instead are more than 2D (embedding takes at most 2D indices).

// CHECK-LABEL: func.func @rank2_indices
func.func @rank2_indices(%x: tensor<1x6xi32>, %w: tensor<10x8xf32>) -> tensor<1x6x8xf32> {
  // CHECK: "ttir.embedding"(%arg0, %arg1) : (tensor<1x6xi32>, tensor<10x8xf32>) -> tensor<1x6x8xf32>
  %0 = "ttir.reshape"(%x) <{shape = [6 : i32]}> : (tensor<1x6xi32>) -> tensor<6xi32>
  %1 = "ttir.embedding"(%0, %w) : (tensor<6xi32>, tensor<10x8xf32>) -> tensor<6x8xf32>
  %2 = "ttir.reshape"(%1) <{shape = [1 : i32, 6 : i32, 8 : i32]}> : (tensor<6x8xf32>) -> tensor<1x6x8xf32>
  return %2 : tensor<1x6x8xf32>
}

// CHECK-LABEL: func.func @rank3_indices
func.func @rank3_indices(%x: tensor<1x6x1xi32>, %w: tensor<10x8xf32>) -> tensor<1x6x1x8xf32> {
  // CHECK: %[[I:.*]] = "ttir.reshape"(%arg0)
  // CHECK: "ttir.embedding"(%[[I]], %arg1) : (tensor<6x1xi32>, tensor<10x8xf32>) -> tensor<6x1x8xf32>
  %0 = "ttir.reshape"(%x) <{shape = [6 : i32, 1 : i32]}> : (tensor<1x6x1xi32>) -> tensor<6x1xi32>
  %1 = "ttir.embedding"(%0, %w) : (tensor<6x1xi32>, tensor<10x8xf32>) -> tensor<6x1x8xf32>
  %2 = "ttir.reshape"(%1) <{shape = [1 : i32, 6 : i32, 1 : i32, 8 : i32]}> : (tensor<6x1x8xf32>) -> tensor<1x6x1x8xf32>
  return %2 : tensor<1x6x1x8xf32>
}
