// RUN: ttmlir-opt --canonicalize %s | FileCheck %s
// An embedding whose indices a reshape made looks its rows up with the unit dims of the indices squeezed out and
// reshapes the rows back; the reshapes on either side fold into their neighbours. Indices without unit dims, or
// not made by a reshape, stay as they are.

// CHECK-LABEL: func.func @unit_dims_squeezed
func.func @unit_dims_squeezed(%x: tensor<6xi32>, %w: tensor<10x8xf32>) -> tensor<6x8xf32> {
  // CHECK-NOT: "ttir.reshape"
  // CHECK: "ttir.embedding"(%arg0, %arg1) : (tensor<6xi32>, tensor<10x8xf32>) -> tensor<6x8xf32>
  // CHECK-NOT: "ttir.reshape"
  %0 = "ttir.reshape"(%x) <{shape = [6 : i32, 1 : i32]}> : (tensor<6xi32>) -> tensor<6x1xi32>
  %1 = "ttir.embedding"(%0, %w) : (tensor<6x1xi32>, tensor<10x8xf32>) -> tensor<6x1x8xf32>
  %2 = "ttir.reshape"(%1) <{shape = [6 : i32, 8 : i32]}> : (tensor<6x1x8xf32>) -> tensor<6x8xf32>
  return %2 : tensor<6x8xf32>
}

// The rows are read as they were: one reshape puts them back.
// CHECK-LABEL: func.func @rows_reshaped_back
func.func @rows_reshaped_back(%x: tensor<2x3x1xi32>, %w: tensor<10x8xf32>) -> tensor<1x6x8xf32> {
  // CHECK: %[[I:.*]] = "ttir.reshape"(%arg0) <{shape = [6 : i32]}>
  // CHECK: %[[E:.*]] = "ttir.embedding"(%[[I]], %arg1) : (tensor<6xi32>, tensor<10x8xf32>) -> tensor<6x8xf32>
  // CHECK: "ttir.reshape"(%[[E]]) <{shape = [1 : i32, 6 : i32, 8 : i32]}>
  %0 = "ttir.reshape"(%x) <{shape = [1 : i32, 6 : i32]}> : (tensor<2x3x1xi32>) -> tensor<1x6xi32>
  %1 = "ttir.embedding"(%0, %w) : (tensor<1x6xi32>, tensor<10x8xf32>) -> tensor<1x6x8xf32>
  return %1 : tensor<1x6x8xf32>
}

// All indices unit: one index.
// CHECK-LABEL: func.func @one_index
func.func @one_index(%x: tensor<1xi32>, %w: tensor<10x8xf32>) -> tensor<1x8xf32> {
  // CHECK: "ttir.embedding"(%arg0, %arg1) : (tensor<1xi32>, tensor<10x8xf32>) -> tensor<1x8xf32>
  %0 = "ttir.reshape"(%x) <{shape = [1 : i32, 1 : i32]}> : (tensor<1xi32>) -> tensor<1x1xi32>
  %1 = "ttir.embedding"(%0, %w) : (tensor<1x1xi32>, tensor<10x8xf32>) -> tensor<1x1x8xf32>
  %2 = "ttir.reshape"(%1) <{shape = [1 : i32, 8 : i32]}> : (tensor<1x1x8xf32>) -> tensor<1x8xf32>
  return %2 : tensor<1x8xf32>
}

// CHECK-LABEL: func.func @kept
func.func @kept(%x: tensor<4x2xi32>, %y: tensor<6x1xi32>, %w: tensor<10x8xf32>) -> (tensor<2x4x8xf32>, tensor<6x1x8xf32>) {
  // CHECK: "ttir.embedding"(%{{.*}}, %arg2) : (tensor<2x4xi32>, tensor<10x8xf32>) -> tensor<2x4x8xf32>
  // CHECK: "ttir.embedding"(%arg1, %arg2) : (tensor<6x1xi32>, tensor<10x8xf32>) -> tensor<6x1x8xf32>
  %0 = "ttir.reshape"(%x) <{shape = [2 : i32, 4 : i32]}> : (tensor<4x2xi32>) -> tensor<2x4xi32>
  %1 = "ttir.embedding"(%0, %w) : (tensor<2x4xi32>, tensor<10x8xf32>) -> tensor<2x4x8xf32>
  %2 = "ttir.embedding"(%y, %w) : (tensor<6x1xi32>, tensor<10x8xf32>) -> tensor<6x1x8xf32>
  return %1, %2 : tensor<2x4x8xf32>, tensor<6x1x8xf32>
}
