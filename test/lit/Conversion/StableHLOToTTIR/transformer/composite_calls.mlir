// REQUIRES: stablehlo
// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline %s | FileCheck %s
// Fused-op custom calls TTIR has no op for become ttcore.composite ops over a private TTIR decomposition; the
// frontend attributes' strings become typed composite attributes (cluster_axis only when given).

module {
  // CHECK-LABEL: func.func public @latent
  // CHECK: "ttcore.composite"(%arg0, %arg1) <{composite_attributes = {has_attention_mask = false, has_value = false, head_dim_v = 32 : ui32, is_causal = true}, composite_name = "flash_mla_prefill", decomposition = @flash_mla_prefill_decomp}>
  func.func public @latent(%q: tensor<1x4x32x64xbf16>, %k: tensor<1x1x32x64xbf16>) -> tensor<1x4x32x32xbf16> {
    %0 = stablehlo.custom_call @tt.flash_mla_prefill(%q, %k) {api_version = 0 : i32, mhlo.frontend_attributes = {head_dim_v = "32", is_causal = "True"}} : (tensor<1x4x32x64xbf16>, tensor<1x1x32x64xbf16>) -> tensor<1x4x32x32xbf16>
    return %0 : tensor<1x4x32x32xbf16>
  }
  // CHECK-LABEL: func.func public @scored
  // CHECK: "ttcore.composite"(%arg0, %arg1, %arg2) <{composite_attributes = {chunk_start_idx = 16 : ui32, cluster_axis = 0 : ui32}, composite_name = "indexer_score_dsa", decomposition = @indexer_score_dsa_decomp}>
  func.func public @scored(%q: tensor<1x4x32x64xbf16>, %k: tensor<1x1x48x64xbf16>, %w: tensor<1x4x32x1xbf16>) -> tensor<1x1x32x48xbf16> {
    %0 = stablehlo.custom_call @tt.indexer_score_dsa(%q, %k, %w) {api_version = 0 : i32, mhlo.frontend_attributes = {chunk_start_idx = "16", cluster_axis = "0"}} : (tensor<1x4x32x64xbf16>, tensor<1x1x48x64xbf16>, tensor<1x4x32x1xbf16>) -> tensor<1x1x32x48xbf16>
    return %0 : tensor<1x1x32x48xbf16>
  }
  // V is the latent's first 32 features; the query heads fold into rows of one matmul against the one key head
  // CHECK-LABEL: func.func private @flash_mla_prefill_decomp
  // CHECK: "ttir.slice_static"(%arg1) {{.*}} -> tensor<1x1x32x32xbf16>
  // CHECK: "ttir.reshape"(%arg0) {{.*}} -> tensor<1x1x128x64xbf16>
  // CHECK: "ttir.softmax"
  // CHECK: "ttir.matmul"{{.*}} -> tensor<1x1x128x32xbf16>
  // CHECK: "ttir.reshape"{{.*}} -> tensor<1x4x32x32xbf16>
  // The causal positions compare in i32, past chunk_start_idx
  // CHECK-LABEL: func.func private @indexer_score_dsa_decomp
  // CHECK: "ttir.relu"
  // CHECK: "ttir.sum"{{.*}}dim_arg = [1 : i32], keep_dim = true
  // CHECK: "ttir.full"() <{fill_value = 16 : i32
  // CHECK: "ttir.ge"{{.*}} -> tensor<1x1x32x48xi32>
  // CHECK: "ttir.where"
}
