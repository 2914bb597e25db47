// RUN: ttmlir-opt --ttcore-register-device --ttnn-fusing="enable-op-constraints=true enable-rope-fusion=true" %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --ttnn-fusing="enable-op-constraints=true" %s | FileCheck %s --check-prefix=NOROPE

// sin * rotate_half(x) + cos * x on [1, 2, 32, 64] rows with [1, 1, 32, 64] tables.
// CHECK-LABEL: func.func @rotate_half
// CHECK: %[[R:.*]] = "ttnn.rotary_embedding"(%arg0, %arg1, %arg2) : (tensor<1x2x32x64xbf16>, tensor<1x1x32x64xbf16>, tensor<1x1x32x64xbf16>) -> tensor<1x2x32x64xbf16>
// CHECK-NOT: "ttnn.neg"
// CHECK: return %[[R]]
// NOROPE-LABEL: func.func @rotate_half
// NOROPE: "ttnn.neg"
func.func @rotate_half(%x: tensor<1x2x32x64xbf16>, %cos: tensor<1x1x32x64xbf16>, %sin: tensor<1x1x32x64xbf16>) -> tensor<1x2x32x64xbf16> {
  %0 = "ttnn.multiply"(%cos, %x) : (tensor<1x1x32x64xbf16>, tensor<1x2x32x64xbf16>) -> tensor<1x2x32x64xbf16>
  %1 = "ttnn.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [1 : i32, 2 : i32, 32 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x2x32x64xbf16>) -> tensor<1x2x32x32xbf16>
  %2 = "ttnn.neg"(%1) : (tensor<1x2x32x32xbf16>) -> tensor<1x2x32x32xbf16>
  %3 = "ttnn.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 2 : i32, 32 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x2x32x64xbf16>) -> tensor<1x2x32x32xbf16>
  %4 = "ttnn.concat"(%2, %3) <{dim = 3 : si32}> : (tensor<1x2x32x32xbf16>, tensor<1x2x32x32xbf16>) -> tensor<1x2x32x64xbf16>
  %5 = "ttnn.multiply"(%sin, %4) : (tensor<1x1x32x64xbf16>, tensor<1x2x32x64xbf16>) -> tensor<1x2x32x64xbf16>
  %6 = "ttnn.add"(%5, %0) : (tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>) -> tensor<1x2x32x64xbf16>
  return %6 : tensor<1x2x32x64xbf16>
}

// One table row broadcast over 32 positions: the kernel reads a row per position, so this stays unfused.
// CHECK-LABEL: func.func @table_shorter_than_sequence
// CHECK-NOT: rotary_embedding
func.func @table_shorter_than_sequence(%x: tensor<1x2x32x64xbf16>, %cos: tensor<1x1x1x64xbf16>, %sin: tensor<1x1x1x64xbf16>) -> tensor<1x2x32x64xbf16> {
  %0 = "ttnn.multiply"(%x, %cos) : (tensor<1x2x32x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x2x32x64xbf16>
  %1 = "ttnn.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [1 : i32, 2 : i32, 32 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x2x32x64xbf16>) -> tensor<1x2x32x32xbf16>
  %2 = "ttnn.neg"(%1) : (tensor<1x2x32x32xbf16>) -> tensor<1x2x32x32xbf16>
  %3 = "ttnn.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 2 : i32, 32 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x2x32x64xbf16>) -> tensor<1x2x32x32xbf16>
  %4 = "ttnn.concat"(%2, %3) <{dim = 3 : si32}> : (tensor<1x2x32x32xbf16>, tensor<1x2x32x32xbf16>) -> tensor<1x2x32x64xbf16>
  %5 = "ttnn.multiply"(%4, %sin) : (tensor<1x2x32x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x2x32x64xbf16>
  %6 = "ttnn.add"(%0, %5) : (tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>) -> tensor<1x2x32x64xbf16>
  return %6 : tensor<1x2x32x64xbf16>
}

// A RoPE on [32, 8, 1, 64] decode rows reordered to [1, 32, 8, 64]: the decode kernel on the reordered rows
// (with or without enable-rope-fusion).
// CHECK-LABEL: func.func @decode
// CHECK: %[[P:.*]] = "ttnn.permute"(%arg0) <{permutation = array<i64: 2, 0, 1, 3>}> : (tensor<32x8x1x64xbf16>) -> tensor<1x32x8x64xbf16>
// CHECK: "ttnn.rotary_embedding"(%[[P]], %arg1, %arg2) <{token_index = 0 : ui32}> : (tensor<1x32x8x64xbf16>, tensor<1x1x1x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x32x8x64xbf16>
// NOROPE-LABEL: func.func @decode
// NOROPE: token_index = 0
func.func @decode(%x: tensor<32x8x1x64xbf16>, %cos: tensor<1x1x1x64xbf16>, %sin: tensor<1x1x1x64xbf16>) -> tensor<1x32x8x64xbf16> {
  %0 = "ttnn.rotary_embedding"(%x, %cos, %sin) : (tensor<32x8x1x64xbf16>, tensor<1x1x1x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<32x8x1x64xbf16>
  %1 = "ttnn.reshape"(%0) <{shape = [1 : i32, 32 : i32, 8 : i32, 64 : i32]}> : (tensor<32x8x1x64xbf16>) -> tensor<1x32x8x64xbf16>
  return %1 : tensor<1x32x8x64xbf16>
}

// The decode reorder already above a per-head rms_norm (erase-inverse-ops moves it up): the RoPE written out on the
// normalized [1, 16, 4, 64] decode rows with one-row tables is the decode kernel on them, the norm left in place.
// CHECK-LABEL: func.func @decode_rows_after_norm
// CHECK: %[[N:.*]] = "ttnn.rms_norm"
// CHECK: %[[R:.*]] = "ttnn.rotary_embedding"(%[[N]], %arg2, %arg3) <{token_index = 0 : ui32}> : (tensor<1x16x4x64xbf16>, tensor<1x1x1x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x16x4x64xbf16>
// CHECK-NOT: "ttnn.concat"
// CHECK: return %[[R]]
// NOROPE-LABEL: func.func @decode_rows_after_norm
// NOROPE-NOT: "ttnn.rotary_embedding"
// NOROPE: return
func.func @decode_rows_after_norm(%x: tensor<16x4x1x64xbf16>, %w: tensor<64xbf16>, %cos: tensor<1x1x1x64xbf16>, %sin: tensor<1x1x1x64xbf16>) -> tensor<1x16x4x64xbf16> {
  %r = "ttnn.reshape"(%x) <{shape = [1 : i32, 16 : i32, 4 : i32, 64 : i32]}> : (tensor<16x4x1x64xbf16>) -> tensor<1x16x4x64xbf16>
  %n = "ttnn.rms_norm"(%r, %w) <{epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<1x16x4x64xbf16>, tensor<64xbf16>) -> tensor<1x16x4x64xbf16>
  %0 = "ttnn.multiply"(%n, %cos) : (tensor<1x16x4x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x16x4x64xbf16>
  %1 = "ttnn.slice_static"(%n) <{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [1 : i32, 16 : i32, 4 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x16x4x64xbf16>) -> tensor<1x16x4x32xbf16>
  %2 = "ttnn.neg"(%1) : (tensor<1x16x4x32xbf16>) -> tensor<1x16x4x32xbf16>
  %3 = "ttnn.slice_static"(%n) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 16 : i32, 4 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x16x4x64xbf16>) -> tensor<1x16x4x32xbf16>
  %4 = "ttnn.concat"(%2, %3) <{dim = 3 : si32}> : (tensor<1x16x4x32xbf16>, tensor<1x16x4x32xbf16>) -> tensor<1x16x4x64xbf16>
  %5 = "ttnn.multiply"(%4, %sin) : (tensor<1x16x4x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x16x4x64xbf16>
  %6 = "ttnn.add"(%0, %5) : (tensor<1x16x4x64xbf16>, tensor<1x16x4x64xbf16>) -> tensor<1x16x4x64xbf16>
  return %6 : tensor<1x16x4x64xbf16>
}

// The same with the norm's result read elsewhere too: upstream's guard keeps the decode RoPE off a shared norm.
// CHECK-LABEL: func.func @decode_rows_after_shared_norm
// CHECK-NOT: token_index
// CHECK: return
func.func @decode_rows_after_shared_norm(%x: tensor<16x4x1x64xbf16>, %w: tensor<64xbf16>, %cos: tensor<1x1x1x64xbf16>, %sin: tensor<1x1x1x64xbf16>) -> (tensor<1x16x4x64xbf16>, tensor<1x16x4x64xbf16>) {
  %r = "ttnn.reshape"(%x) <{shape = [1 : i32, 16 : i32, 4 : i32, 64 : i32]}> : (tensor<16x4x1x64xbf16>) -> tensor<1x16x4x64xbf16>
  %n = "ttnn.rms_norm"(%r, %w) <{epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<1x16x4x64xbf16>, tensor<64xbf16>) -> tensor<1x16x4x64xbf16>
  %0 = "ttnn.multiply"(%n, %cos) : (tensor<1x16x4x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x16x4x64xbf16>
  %1 = "ttnn.slice_static"(%n) <{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [1 : i32, 16 : i32, 4 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x16x4x64xbf16>) -> tensor<1x16x4x32xbf16>
  %2 = "ttnn.neg"(%1) : (tensor<1x16x4x32xbf16>) -> tensor<1x16x4x32xbf16>
  %3 = "ttnn.slice_static"(%n) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 16 : i32, 4 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x16x4x64xbf16>) -> tensor<1x16x4x32xbf16>
  %4 = "ttnn.concat"(%2, %3) <{dim = 3 : si32}> : (tensor<1x16x4x32xbf16>, tensor<1x16x4x32xbf16>) -> tensor<1x16x4x64xbf16>
  %5 = "ttnn.multiply"(%4, %sin) : (tensor<1x16x4x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x16x4x64xbf16>
  %6 = "ttnn.add"(%0, %5) : (tensor<1x16x4x64xbf16>, tensor<1x16x4x64xbf16>) -> tensor<1x16x4x64xbf16>
  return %6, %n : tensor<1x16x4x64xbf16>, tensor<1x16x4x64xbf16>
}
