// RUN: ttmlir-opt --split-input-file --ttcore-register-device="mock-system-desc-arch=blackhole" --ttnn-layout --ttnn-workaround %s | FileCheck %s --check-prefix=BH
// RUN: ttmlir-opt --split-input-file --ttcore-register-device="mock-system-desc-arch=wormhole_b0" --ttnn-layout --ttnn-workaround %s | FileCheck %s --check-prefix=WH

// Blackhole: tt-metal's decode defaults spelled out, with the exact exponent. Wormhole: left to tt-metal.
// BH-LABEL: func.func @defaults
// BH: "ttnn.paged_scaled_dot_product_attention_decode"{{.*}}program_config = #ttnn.sdpa_program_config<compute_with_storage_grid_size = #ttnn.core_coord<13, 10>, q_chunk_size = 32, k_chunk_size = 32, exp_approx_mode = false, max_cores_per_head_batch = 1>
// WH-LABEL: func.func @defaults
// WH-NOT: sdpa_program_config
func.func @defaults(%q: tensor<1x1x4x64xbf16>, %k: tensor<16x4x32x64xbf16>, %v: tensor<16x4x32x64xbf16>, %pages: tensor<1x16xi32>, %pos: tensor<1xi32>) -> tensor<1x1x4x64xbf16> {
  %0 = "ttnn.paged_scaled_dot_product_attention_decode"(%q, %k, %v, %pages, %pos) <{is_causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1, 0>}> : (tensor<1x1x4x64xbf16>, tensor<16x4x32x64xbf16>, tensor<16x4x32x64xbf16>, tensor<1x16xi32>, tensor<1xi32>) -> tensor<1x1x4x64xbf16>
  return %0 : tensor<1x1x4x64xbf16>
}

// -----

// A config of the user's keeps its chunking and cores; only the exponent changes, on Blackhole.
// BH-LABEL: func.func @given
// BH: program_config = #ttnn.sdpa_program_config<compute_with_storage_grid_size = #ttnn.core_coord<4, 4>, q_chunk_size = 64, k_chunk_size = 64, exp_approx_mode = false>
// WH-LABEL: func.func @given
// WH: program_config = #ttnn.sdpa_program_config<compute_with_storage_grid_size = #ttnn.core_coord<4, 4>, q_chunk_size = 64, k_chunk_size = 64, exp_approx_mode = true>
func.func @given(%q: tensor<1x1x4x64xbf16>, %k: tensor<16x4x32x64xbf16>, %v: tensor<16x4x32x64xbf16>, %pages: tensor<1x16xi32>, %pos: tensor<1xi32>) -> tensor<1x1x4x64xbf16> {
  %0 = "ttnn.paged_scaled_dot_product_attention_decode"(%q, %k, %v, %pages, %pos) <{is_causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1, 0>, program_config = #ttnn.sdpa_program_config<compute_with_storage_grid_size = #ttnn.core_coord<4, 4>, q_chunk_size = 64, k_chunk_size = 64, exp_approx_mode = true>}> : (tensor<1x1x4x64xbf16>, tensor<16x4x32x64xbf16>, tensor<16x4x32x64xbf16>, tensor<1x16xi32>, tensor<1xi32>) -> tensor<1x1x4x64xbf16>
  return %0 : tensor<1x1x4x64xbf16>
}
