// RUN: ttmlir-opt --canonicalize %s | FileCheck %s
// A TTNN permute that moves only size-1 dimensions is a reshape; one that reorders real dimensions stays.

// CHECK-LABEL: func.func @heads_first
// CHECK: "ttnn.reshape"(%arg0) <{shape = [1 : i32, 16 : i32, 4 : i32, 32 : i32]}> : (tensor<16x1x4x32xbf16>) -> tensor<1x16x4x32xbf16>
// CHECK-NOT: ttnn.permute
func.func @heads_first(%arg0: tensor<16x1x4x32xbf16>) -> tensor<1x16x4x32xbf16> {
  %0 = "ttnn.permute"(%arg0) <{permutation = array<i64: 1, 0, 2, 3>}> : (tensor<16x1x4x32xbf16>) -> tensor<1x16x4x32xbf16>
  return %0 : tensor<1x16x4x32xbf16>
}

// CHECK-LABEL: func.func @transpose
// CHECK: "ttnn.permute"(%arg0) <{permutation = array<i64: 0, 2, 1>}>
// CHECK-NOT: ttnn.reshape
func.func @transpose(%arg0: tensor<1x4x32xbf16>) -> tensor<1x32x4xbf16> {
  %0 = "ttnn.permute"(%arg0) <{permutation = array<i64: 0, 2, 1>}> : (tensor<1x4x32xbf16>) -> tensor<1x32x4xbf16>
  return %0 : tensor<1x32x4xbf16>
}
