// RUN: ttmlir-opt --canonicalize %s | FileCheck %s

// The matmul broadcasts a 1x1-batch right operand over dim 1 itself: the repeat goes.
// CHECK-LABEL: func.func @implied
// CHECK-NOT: "ttnn.repeat"
// CHECK: "ttnn.matmul"(%arg0, %arg1)
func.func @implied(%a: tensor<1x8x64x32xbf16>, %b: tensor<1x1x32x64xbf16>) -> tensor<1x8x64x64xbf16> {
  %0 = "ttnn.repeat"(%b) <{repeat_dims = #ttnn.shape<1x8x1x1>}> : (tensor<1x1x32x64xbf16>) -> tensor<1x8x32x64xbf16>
  %1 = "ttnn.matmul"(%a, %0) : (tensor<1x8x64x32xbf16>, tensor<1x8x32x64xbf16>) -> tensor<1x8x64x64xbf16>
  return %1 : tensor<1x8x64x64xbf16>
}

// Batch 2 on dim 0: the kernel would not broadcast the right operand; the repeat stays.
// CHECK-LABEL: func.func @outer_batch
// CHECK: "ttnn.repeat"
func.func @outer_batch(%a: tensor<2x8x64x32xbf16>, %b: tensor<2x1x32x64xbf16>) -> tensor<2x8x64x64xbf16> {
  %0 = "ttnn.repeat"(%b) <{repeat_dims = #ttnn.shape<1x8x1x1>}> : (tensor<2x1x32x64xbf16>) -> tensor<2x8x32x64xbf16>
  %1 = "ttnn.matmul"(%a, %0) : (tensor<2x8x64x32xbf16>, tensor<2x8x32x64xbf16>) -> tensor<2x8x64x64xbf16>
  return %1 : tensor<2x8x64x64xbf16>
}
