// RUN: ttmlir-opt --ttcore-register-device --ttnn-fusing="enable-op-constraints=true" %s | FileCheck %s
// RUN: ttmlir-opt --ttnn-fusing="enable-op-constraints=true" %s | FileCheck %s --check-prefix=UNDESCRIBED

// CHECK-LABEL: func.func @decode_rows
// CHECK: %[[J:.*]] = "ttnn.nlp_concat_heads_decode"(%arg0) <{num_heads = 8 : ui32}> : (tensor<1x32x8x64xbf16>) -> tensor<1x1x32x512xbf16>
// CHECK: "ttnn.reshape"(%[[J]]) <{shape = [32 : i32, 512 : i32]}>
// UNDESCRIBED-NOT: nlp_concat_heads_decode
func.func @decode_rows(%x: tensor<1x32x8x64xbf16>) -> tensor<32x512xbf16> {
  %0 = "ttnn.permute"(%x) <{permutation = array<i64: 1, 2, 0, 3>}> : (tensor<1x32x8x64xbf16>) -> tensor<32x8x1x64xbf16>
  %1 = "ttnn.reshape"(%0) <{shape = [32 : i32, 512 : i32]}> : (tensor<32x8x1x64xbf16>) -> tensor<32x512xbf16>
  return %1 : tensor<32x512xbf16>
}

// 16 users: not a whole tile of rows, left alone.
// CHECK-LABEL: func.func @few_users
// CHECK-NOT: nlp_concat_heads_decode
func.func @few_users(%x: tensor<1x16x8x64xbf16>) -> tensor<16x512xbf16> {
  %0 = "ttnn.reshape"(%x) <{shape = [16 : i32, 512 : i32]}> : (tensor<1x16x8x64xbf16>) -> tensor<16x512xbf16>
  return %0 : tensor<16x512xbf16>
}
