// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% enable-ttnn-decomposition-pass=false" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// The attention family lowered to TTNN's kernels and serialized.

// A mask broadcast over the queries is materialized for the prefill kernel, which streams over them.
// CHECK-LABEL: func.func @prefill_query_broadcast_mask
// CHECK: %[[MASK:.*]] = "ttnn.repeat"(%arg3) <{repeat_dims = #ttnn.shape<1x1x64x1>}>
// CHECK: "ttnn.scaled_dot_product_attention"(%arg0, %arg1, %arg2, %[[MASK]]) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}>
func.func @prefill_query_broadcast_mask(%q: tensor<2x8x64x64xbf16>, %k: tensor<2x2x64x64xbf16>, %v: tensor<2x2x64x64xbf16>, %mask: tensor<2x1x1x64xbf16>) -> tensor<2x8x64x64xbf16> {
  %0 = "ttir.scaled_dot_product_attention"(%q, %k, %v, %mask) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}> : (tensor<2x8x64x64xbf16>, tensor<2x2x64x64xbf16>, tensor<2x2x64x64xbf16>, tensor<2x1x1x64xbf16>) -> tensor<2x8x64x64xbf16>
  return %0 : tensor<2x8x64x64xbf16>
}

// One query token is TTNN's decode op: query [B, H, 1, D] -> [1, B, H, D], the mask's heads moved to dim 2 and
// repeated to every query head, the result permuted back (permutes that move only unit dimensions canonicalize
// to reshapes, or vanish).
// CHECK-LABEL: func.func @one_query
// CHECK: %[[Q:.*]] = "ttnn.reshape"(%arg0) <{shape = [1 : i32, 2 : i32, 8 : i32, 64 : i32]}>
// CHECK: %[[MASK:.*]] = "ttnn.repeat"(%arg3) <{repeat_dims = #ttnn.shape<1x1x8x1>}>
// CHECK: %[[D:.*]] = "ttnn.scaled_dot_product_attention_decode"(%[[Q]], %arg1, %arg2, %[[MASK]])
// CHECK-SAME: -> tensor<1x2x8x64xbf16
// CHECK: "ttnn.reshape"(%[[D]]) <{shape = [2 : i32, 8 : i32, 1 : i32, 64 : i32]}>
func.func @one_query(%q: tensor<2x8x1x64xbf16>, %k: tensor<2x2x128x64xbf16>, %v: tensor<2x2x128x64xbf16>, %mask: tensor<2x1x1x128xbf16>) -> tensor<2x8x1x64xbf16> {
  %0 = "ttir.scaled_dot_product_attention"(%q, %k, %v, %mask) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}> : (tensor<2x8x1x64xbf16>, tensor<2x2x128x64xbf16>, tensor<2x2x128x64xbf16>, tensor<2x1x1x128xbf16>) -> tensor<2x8x1x64xbf16>
  return %0 : tensor<2x8x1x64xbf16>
}

// A head size off the tile grid is zero-padded to whole tiles, with the scale of the unpadded head, and sliced back.
// CHECK-LABEL: func.func @unaligned_head
// CHECK-COUNT-3: "ttnn.pad"{{.*}}padding = array<i32: 0, 0, 0, 0, 0, 0, 0, 16>
// CHECK: %[[S:.*]] = "ttnn.scaled_dot_product_attention"{{.*}}scale = 0.144337{{.*}} -> tensor<1x4x32x64xbf16
// CHECK: "ttnn.slice_static"(%[[S]]) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 4 : i32, 32 : i32, 48 : i32]
func.func @unaligned_head(%q: tensor<1x4x32x48xbf16>, %k: tensor<1x4x32x48xbf16>, %v: tensor<1x4x32x48xbf16>) -> tensor<1x4x32x48xbf16> {
  %0 = "ttir.scaled_dot_product_attention"(%q, %k, %v) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (tensor<1x4x32x48xbf16>, tensor<1x4x32x48xbf16>, tensor<1x4x32x48xbf16>) -> tensor<1x4x32x48xbf16>
  return %0 : tensor<1x4x32x48xbf16>
}

// Paged decode drops TTIR's destination operand and reads its page table and positions row-major.
// CHECK-LABEL: func.func @paged_decode
// CHECK-DAG: %[[TABLE:.*]] = "ttnn.to_layout"(%arg3)
// CHECK-DAG: %[[POS:.*]] = "ttnn.to_layout"(%arg5)
// CHECK: "ttnn.paged_scaled_dot_product_attention_decode"(%arg0, %arg1, %arg2, %[[TABLE]], %[[POS]]) <{is_causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1, 0>, sliding_window_size = 64 : ui32}>
func.func @paged_decode(%q: tensor<1x2x8x64xbf16>, %k: tensor<16x2x32x64xbf16>, %v: tensor<16x2x32x64xbf16>, %table: tensor<2x8xi32>, %out: tensor<1x2x8x64xbf16>, %pos: tensor<2xi32>) -> tensor<1x2x8x64xbf16> {
  %0 = "ttir.paged_scaled_dot_product_attention_decode"(%q, %k, %v, %table, %out, %pos) <{sliding_window_size = 64 : ui32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1, 0>}> : (tensor<1x2x8x64xbf16>, tensor<16x2x32x64xbf16>, tensor<16x2x32x64xbf16>, tensor<2x8xi32>, tensor<1x2x8x64xbf16>, tensor<2xi32>) -> tensor<1x2x8x64xbf16>
  return %0 : tensor<1x2x8x64xbf16>
}

// CHECK-LABEL: func.func @chunked_prefill
// CHECK: "ttnn.chunked_scaled_dot_product_attention"({{.*}}) <{scale = 1.250000e-01 : f32}> : (tensor<1x4x32x64xbf16
func.func @chunked_prefill(%q: tensor<1x4x32x64xbf16>, %k: tensor<8x4x32x64xbf16>, %v: tensor<8x4x32x64xbf16>, %table: tensor<1x8xi32>, %start: tensor<1xi32>, %out: tensor<1x4x32x64xbf16>) -> tensor<1x4x32x64xbf16> {
  %0 = "ttir.chunked_scaled_dot_product_attention"(%q, %k, %v, %table, %start, %out) <{scale = 0.125 : f32}> : (tensor<1x4x32x64xbf16>, tensor<8x4x32x64xbf16>, tensor<8x4x32x64xbf16>, tensor<1x8xi32>, tensor<1xi32>, tensor<1x4x32x64xbf16>) -> tensor<1x4x32x64xbf16>
  return %0 : tensor<1x4x32x64xbf16>
}

// Latent attention's page table is row-major si32 for the kernel.
// CHECK-LABEL: func.func @latent_decode
// CHECK: %[[TABLE:.*]] = "ttnn.to_layout"{{.*}} -> tensor<1x64xsi32
// CHECK: "ttnn.paged_flash_multi_latent_attention_decode"(%arg0, %arg1, %[[TABLE]], {{.*}}) <{head_dim_v = 64 : ui32, is_causal = true, operandSegmentSizes = array<i32: 1, 1, 0, 1, 0, 1, 0>}>
func.func @latent_decode(%q: tensor<1x1x32x64xbf16>, %k: tensor<64x1x32x64xbf16>, %table: tensor<1x64xui32>, %pos: tensor<1xsi32>) -> tensor<1x1x32x64xbf16> {
  %0 = "ttir.paged_flash_multi_latent_attention_decode"(%q, %k, %table, %pos) <{head_dim_v = 64 : ui32, operandSegmentSizes = array<i32: 1, 1, 0, 1, 0, 1, 0>}> : (tensor<1x1x32x64xbf16>, tensor<64x1x32x64xbf16>, tensor<1x64xui32>, tensor<1xsi32>) -> tensor<1x1x32x64xbf16>
  return %0 : tensor<1x1x32x64xbf16>
}
