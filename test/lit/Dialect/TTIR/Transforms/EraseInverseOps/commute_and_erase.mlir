// RUN: ttmlir-opt --ttir-erase-inverse-ops %s | FileCheck %s
// RUN: ttmlir-opt --ttir-erase-inverse-ops="enable-commute-upwards=false enable-commute-downwards=false" %s | FileCheck %s --check-prefix=OFF
// RUN: not ttmlir-opt --ttir-erase-inverse-ops="max-iterations=0" %s 2>&1 | FileCheck %s --check-prefix=BAD

// A conv-style NHWC <-> NCHW round trip around a gelu and a per-channel scale (a parameter): both permutes go.
// CHECK-LABEL: func.func @round_trip
// CHECK-NOT: "ttir.permute"
// CHECK: "ttir.gelu"(%arg0)
// CHECK: "ttir.multiply"
// CHECK-NOT: "ttir.permute"
// OFF-LABEL: func.func @round_trip
// OFF-COUNT-2: "ttir.permute"
// BAD: error: max-iterations must be at least 1, got 0
func.func @round_trip(%arg0: tensor<1x8x16x32xbf16>, %arg1: tensor<1x32x8x16xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<1x8x16x32xbf16> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<1x8x16x32xbf16>) -> tensor<1x32x8x16xbf16>
  %1 = "ttir.gelu"(%0) : (tensor<1x32x8x16xbf16>) -> tensor<1x32x8x16xbf16>
  %2 = "ttir.multiply"(%1, %arg1) : (tensor<1x32x8x16xbf16>, tensor<1x32x8x16xbf16>) -> tensor<1x32x8x16xbf16>
  %3 = "ttir.permute"(%2) <{permutation = array<i64: 0, 2, 3, 1>}> : (tensor<1x32x8x16xbf16>) -> tensor<1x8x16x32xbf16>
  return %3 : tensor<1x8x16x32xbf16>
}

// A reshape that merges the reduced dimension stays in front of the sum.
// CHECK-LABEL: func.func @merged_reduce_dim
// CHECK: "ttir.reshape"(%arg0)
// CHECK-NEXT: "ttir.sum"
func.func @merged_reduce_dim(%arg0: tensor<4x8x16xbf16>) -> tensor<4x1xbf16> {
  %0 = "ttir.reshape"(%arg0) <{shape = [4 : i32, 128 : i32]}> : (tensor<4x8x16xbf16>) -> tensor<4x128xbf16>
  %1 = "ttir.sum"(%0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<4x128xbf16>) -> tensor<4x1xbf16>
  return %1 : tensor<4x1xbf16>
}

// A mean over the two size-1 dims of a 1x1 loss, reshaped to 1: the reshape goes above it, and the two dims it
// merges are reduced once (a dim_arg naming one dim twice does not verify).
// CHECK-LABEL: func.func @merged_unit_reduce_dims
// CHECK: "ttir.reshape"(%arg0)
// CHECK: "ttir.mean"
// CHECK-SAME: dim_arg = [0 : i32]
func.func @merged_unit_reduce_dims(%arg0: tensor<1x1xf32>) -> tensor<1xf32> {
  %0 = "ttir.abs"(%arg0) : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %1 = "ttir.mean"(%0) <{dim_arg = [0 : i32, 1 : i32], keep_dim = true}> : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %2 = "ttir.reshape"(%1) <{shape = [1 : i32]}> : (tensor<1x1xf32>) -> tensor<1xf32>
  return %2 : tensor<1xf32>
}
