// RUN: ttmlir-opt --ttcore-register-device --ttnn-fusing="enable-op-constraints=true" %s | FileCheck %s

// Key (2 heads), query (4 heads) and value (2 heads) projections of one input: one matmul onto the weights joined
// query first, then the fused split.
// CHECK-LABEL: func.func @gqa
// CHECK: %[[W:.*]] = "ttnn.concat"(%arg2, %arg1, %arg3) <{dim = 0 : si32}> : (tensor<256x256xbf16>, tensor<128x256xbf16>, tensor<128x256xbf16>) -> tensor<512x256xbf16>
// CHECK: %[[P:.*]] = "ttnn.matmul"(%arg0, %[[W]]) <{transpose_a = false, transpose_b = true}> : (tensor<32x256xbf16>, tensor<512x256xbf16>) -> tensor<32x512xbf16>
// CHECK: %[[R:.*]] = "ttnn.reshape"(%[[P]]) <{shape = [1 : i32, 32 : i32, 512 : i32]}>
// CHECK: %query, %key, %value = "ttnn.split_query_key_value_and_split_heads"(%[[R]]) <{num_heads = 4 : ui32, num_kv_heads = 2 : ui32, transpose_key = false}> : (tensor<1x32x512xbf16>) -> (tensor<1x4x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>)
// CHECK-NOT: "ttnn.permute"
// CHECK: return %key, %query, %value
func.func @gqa(%x: tensor<32x256xbf16>, %wk: tensor<128x256xbf16>, %wq: tensor<256x256xbf16>, %wv: tensor<128x256xbf16>) -> (tensor<1x2x32x64xbf16>, tensor<1x4x32x64xbf16>, tensor<1x2x32x64xbf16>) {
  %k0 = "ttnn.matmul"(%x, %wk) <{transpose_a = false, transpose_b = true}> : (tensor<32x256xbf16>, tensor<128x256xbf16>) -> tensor<32x128xbf16>
  %k1 = "ttnn.reshape"(%k0) <{shape = [1 : i32, 32 : i32, 2 : i32, 64 : i32]}> : (tensor<32x128xbf16>) -> tensor<1x32x2x64xbf16>
  %k = "ttnn.permute"(%k1) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x32x2x64xbf16>) -> tensor<1x2x32x64xbf16>
  %q0 = "ttnn.matmul"(%x, %wq) <{transpose_a = false, transpose_b = true}> : (tensor<32x256xbf16>, tensor<256x256xbf16>) -> tensor<32x256xbf16>
  %q1 = "ttnn.reshape"(%q0) <{shape = [1 : i32, 32 : i32, 4 : i32, 64 : i32]}> : (tensor<32x256xbf16>) -> tensor<1x32x4x64xbf16>
  %q = "ttnn.permute"(%q1) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x32x4x64xbf16>) -> tensor<1x4x32x64xbf16>
  %v0 = "ttnn.matmul"(%x, %wv) <{transpose_a = false, transpose_b = true}> : (tensor<32x256xbf16>, tensor<128x256xbf16>) -> tensor<32x128xbf16>
  %v1 = "ttnn.reshape"(%v0) <{shape = [1 : i32, 32 : i32, 2 : i32, 64 : i32]}> : (tensor<32x128xbf16>) -> tensor<1x32x2x64xbf16>
  %v = "ttnn.permute"(%v1) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x32x2x64xbf16>) -> tensor<1x2x32x64xbf16>
  return %k, %q, %v : tensor<1x2x32x64xbf16>, tensor<1x4x32x64xbf16>, tensor<1x2x32x64xbf16>
}

// Two projections only: left alone.
// CHECK-LABEL: func.func @two
// CHECK-NOT: split_query_key_value_and_split_heads
func.func @two(%x: tensor<32x256xbf16>, %wk: tensor<128x256xbf16>, %wv: tensor<128x256xbf16>) -> (tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>) {
  %k0 = "ttnn.matmul"(%x, %wk) <{transpose_a = false, transpose_b = true}> : (tensor<32x256xbf16>, tensor<128x256xbf16>) -> tensor<32x128xbf16>
  %k1 = "ttnn.reshape"(%k0) <{shape = [1 : i32, 32 : i32, 2 : i32, 64 : i32]}> : (tensor<32x128xbf16>) -> tensor<1x32x2x64xbf16>
  %k = "ttnn.permute"(%k1) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x32x2x64xbf16>) -> tensor<1x2x32x64xbf16>
  %v0 = "ttnn.matmul"(%x, %wv) <{transpose_a = false, transpose_b = true}> : (tensor<32x256xbf16>, tensor<128x256xbf16>) -> tensor<32x128xbf16>
  %v1 = "ttnn.reshape"(%v0) <{shape = [1 : i32, 32 : i32, 2 : i32, 64 : i32]}> : (tensor<32x128xbf16>) -> tensor<1x32x2x64xbf16>
  %v = "ttnn.permute"(%v1) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x32x2x64xbf16>) -> tensor<1x2x32x64xbf16>
  return %k, %v : tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>
}
