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

// -----
// exp / sum(exp) along one kept dimension is a softmax; after a subtracted max, a numerically stable one.
// CHECK-LABEL: func.func @softmax
// CHECK-NEXT: %[[S:[0-9]+]] = "ttir.softmax"(%arg0) <{dimension = 1 : si32, numericStable = false}>
// CHECK-NEXT: return %[[S]]
func.func @softmax(%arg0: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %0 = "ttir.exp"(%arg0) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %1 = "ttir.sum"(%0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<8x32xf32>) -> tensor<8x1xf32>
  %2 = "ttir.broadcast"(%1) <{broadcast_dimensions = array<i64: 1, 32>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
  %3 = "ttir.div"(%0, %2) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  return %3 : tensor<8x32xf32>
}

// -----
// CHECK-LABEL: func.func @stable_softmax
// CHECK-NEXT: %[[S:[0-9]+]] = "ttir.softmax"(%arg0) <{dimension = 0 : si32, numericStable = true}>
// CHECK-NEXT: return %[[S]]
func.func @stable_softmax(%arg0: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %0 = "ttir.max"(%arg0) <{dim_arg = [0 : i32], keep_dim = true}> : (tensor<8x32xf32>) -> tensor<1x32xf32>
  %1 = "ttir.subtract"(%arg0, %0) : (tensor<8x32xf32>, tensor<1x32xf32>) -> tensor<8x32xf32>
  %2 = "ttir.exp"(%1) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %3 = "ttir.sum"(%2) <{dim_arg = [0 : i32], keep_dim = true}> : (tensor<8x32xf32>) -> tensor<1x32xf32>
  %4 = "ttir.div"(%2, %3) : (tensor<8x32xf32>, tensor<1x32xf32>) -> tensor<8x32xf32>
  return %4 : tensor<8x32xf32>
}

// -----
// exp read elsewhere too, or a sum that drops its dimension: no softmax.
// CHECK-LABEL: func.func @no_softmax
// CHECK: "ttir.exp"
// CHECK: "ttir.div"
// CHECK: "ttir.div"
func.func @no_softmax(%arg0: tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %0 = "ttir.exp"(%arg0) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %1 = "ttir.sum"(%0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<8x32xf32>) -> tensor<8x1xf32>
  %2 = "ttir.div"(%0, %1) : (tensor<8x32xf32>, tensor<8x1xf32>) -> tensor<8x32xf32>
  %3 = "ttir.div"(%0, %0) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  return %2, %3 : tensor<8x32xf32>, tensor<8x32xf32>
}

// -----

// A reduction whose dropped dim a reshape puts back keeps it itself; exp/sum/div then fuse into softmax.
// CHECK-LABEL: func.func @softmax_through_reshape
// CHECK-NOT: "ttir.reshape"
// CHECK: "ttir.softmax"(%arg0) <{dimension = 1 : si32, numericStable = false}>
module {
  func.func @softmax_through_reshape(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.exp"(%arg0) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %1 = "ttir.sum"(%0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<32x64xf32>) -> tensor<32xf32>
    %2 = "ttir.reshape"(%1) <{shape = [32 : i32, 1 : i32]}> : (tensor<32xf32>) -> tensor<32x1xf32>
    %3 = "ttir.broadcast"(%2) <{broadcast_dimensions = array<i64: 1, 64>}> : (tensor<32x1xf32>) -> tensor<32x64xf32>
    %4 = "ttir.div"(%0, %3) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    return %4 : tensor<32x64xf32>
  }
}

// -----

// A reshape that does not restore the reduced dims in place stays.
// CHECK-LABEL: func.func @other_reshape
// CHECK: "ttir.sum"{{.*}}keep_dim = false
// CHECK: "ttir.reshape"
module {
  func.func @other_reshape(%arg0: tensor<32x64xf32>) -> tensor<1x32xf32> {
    %0 = "ttir.sum"(%arg0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<32x64xf32>) -> tensor<32xf32>
    %1 = "ttir.reshape"(%0) <{shape = [1 : i32, 32 : i32]}> : (tensor<32xf32>) -> tensor<1x32xf32>
    return %1 : tensor<1x32xf32>
  }
}

// -----

// Operands reshaped from one shape: fusing leaves them (moving reshapes through elementwise ops is
// --ttir-erase-inverse-ops' work, as upstream).
// CHECK-LABEL: func.func @reshapes_after_add
// CHECK: %[[A:.*]] = "ttir.reshape"(%arg0)
// CHECK: %[[B:.*]] = "ttir.reshape"(%arg1)
// CHECK: "ttir.add"(%[[A]], %[[B]]) : (tensor<1x128xf32>, tensor<1x128xf32>) -> tensor<1x128xf32>
module {
  func.func @reshapes_after_add(%arg0: tensor<128xf32>, %arg1: tensor<128xf32>) -> tensor<1x128xf32> {
    %0 = "ttir.reshape"(%arg0) <{shape = [1 : i32, 128 : i32]}> : (tensor<128xf32>) -> tensor<1x128xf32>
    %1 = "ttir.reshape"(%arg1) <{shape = [1 : i32, 128 : i32]}> : (tensor<128xf32>) -> tensor<1x128xf32>
    %2 = "ttir.add"(%0, %1) : (tensor<1x128xf32>, tensor<1x128xf32>) -> tensor<1x128xf32>
    return %2 : tensor<1x128xf32>
  }
}
