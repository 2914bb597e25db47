// RUN: ttmlir-opt --ttcore-register-device --ttnn-layout --ttnn-decomposition %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --ttnn-layout --ttnn-decomposition="enable-op-constraints=true" %s | FileCheck %s --check-prefix=KEPT

// Decode attention: the query rows permuted to [B, H, 1, D], each user's position (cur_pos) hiding later keys,
// then the prefill form decomposed, and the result permuted back.
// CHECK-LABEL: func.func @decode
// CHECK-NOT: "ttnn.scaled_dot_product_attention
// CHECK: "ttnn.permute"{{.*}}permutation = array<i64: 1, 2, 0, 3>
// CHECK: "ttnn.arange"
// CHECK: "ttnn.typecast"(%{{.*}}) : (tensor<2x1x1x1xi32
// CHECK: "ttnn.gt"
// CHECK: "ttnn.where"
// CHECK: "ttnn.transpose"{{.*}}dim0 = -2 : si32, dim1 = -1 : si32
// CHECK: "ttnn.matmul"
// CHECK: "ttnn.softmax"{{.*}}numericStable = true
// CHECK: "ttnn.matmul"
// CHECK: "ttnn.permute"{{.*}}permutation = array<i64: 2, 0, 1, 3>
// KEPT-LABEL: func.func @decode
// KEPT: "ttnn.scaled_dot_product_attention_decode"
func.func @decode(%q: tensor<1x2x8x32xbf16>, %k: tensor<2x8x64x32xbf16>, %v: tensor<2x8x64x32xbf16>,
                  %pos: tensor<2xi32>) -> tensor<1x2x8x32xbf16> {
  %0 = "ttnn.scaled_dot_product_attention_decode"(%q, %k, %v, %pos) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>,
      is_causal = true}> : (tensor<1x2x8x32xbf16>, tensor<2x8x64x32xbf16>, tensor<2x8x64x32xbf16>, tensor<2xi32>)
      -> tensor<1x2x8x32xbf16>
  return %0 : tensor<1x2x8x32xbf16>
}

// Group norm over 48 positions (no whole tile): decomposed with or without the op model's constraints.
// CHECK-LABEL: func.func @group_norm
// CHECK: "ttnn.reshape"{{.*}}shape = [2 : i32, 48 : i32, 4 : i32, 16 : i32]
// CHECK: "ttnn.mean"{{.*}}dim_arg = [1 : i32, 3 : i32], keep_dim = true
// CHECK: "ttnn.rsqrt"
// CHECK: "ttnn.reshape"{{.*}}shape = [2 : i32, 1 : i32, 48 : i32, 64 : i32]
// KEPT-LABEL: func.func @group_norm
// KEPT-NOT: "ttnn.group_norm"
func.func @group_norm(%x: tensor<2x1x48x64xbf16>) -> tensor<2x1x48x64xbf16> {
  %0 = "ttnn.group_norm"(%x) <{num_groups = 4 : i64, epsilon = 1.000000e-05 : f32,
      operandSegmentSizes = array<i32: 1, 0, 0, 0>}> : (tensor<2x1x48x64xbf16>) -> tensor<2x1x48x64xbf16>
  return %0 : tensor<2x1x48x64xbf16>
}
