// RUN: ttmlir-opt --ttir-predicate-type-alignment %s | FileCheck %s

// A comparison read through a typecast yields its operands' type; the cast is then a no-op.
// CHECK-LABEL: func.func @compare_in_data_type
// CHECK: "ttir.lt"(%arg0, %arg1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
func.func @compare_in_data_type(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = "ttir.lt"(%arg0, %arg1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
  %1 = "ttir.typecast"(%0) : (tensor<8x8xi1>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// The comparison's new type flows through the permute to the logical op, whose other (i1) side is cast.
// CHECK-LABEL: func.func @chain
// CHECK: %[[CMP:.*]] = "ttir.ne"(%arg0, %arg0) : (tensor<2x4xsi32>, tensor<2x4xsi32>) -> tensor<2x4xsi32>
// CHECK: %[[P:.*]] = "ttir.permute"(%[[CMP]]) {{.*}} -> tensor<4x2xsi32>
// CHECK: %[[CAST:.*]] = "ttir.typecast"(%arg1) <{conservative_folding = false}> : (tensor<4x2xi1>) -> tensor<4x2xsi32>
// CHECK: "ttir.logical_or"(%[[P]], %[[CAST]]) : (tensor<4x2xsi32>, tensor<4x2xsi32>) -> tensor<4x2xsi32>
func.func @chain(%arg0: tensor<2x4xsi32>, %arg1: tensor<4x2xi1>) -> tensor<4x2xsi32> {
  %0 = "ttir.ne"(%arg0, %arg0) : (tensor<2x4xsi32>, tensor<2x4xsi32>) -> tensor<2x4xi1>
  %1 = "ttir.permute"(%0) <{permutation = array<i64: 1, 0>}> : (tensor<2x4xi1>) -> tensor<4x2xi1>
  %2 = "ttir.logical_or"(%1, %arg1) : (tensor<4x2xi1>, tensor<4x2xi1>) -> tensor<4x2xi1>
  %3 = "ttir.typecast"(%2) : (tensor<4x2xi1>) -> tensor<4x2xsi32>
  return %3 : tensor<4x2xsi32>
}

// An i1 result a return reads keeps its type: the signature says i1.
// CHECK-LABEL: func.func @returned
// CHECK: "ttir.gt"(%arg0, %arg0) : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
func.func @returned(%arg0: tensor<4xbf16>) -> tensor<4xi1> {
  %0 = "ttir.gt"(%arg0, %arg0) : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
