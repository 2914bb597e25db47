// RUN: ttmlir-opt --ttnn-resolve-composites="composite-resolution=force-promote" %s | FileCheck %s --check-prefix=PROMOTE
// RUN: ttmlir-opt --ttnn-resolve-composites %s | FileCheck %s --check-prefix=INLINE
// RUN: not ttmlir-opt --ttnn-resolve-composites="composite-resolution=always" %s 2>&1 | FileCheck %s --check-prefix=BAD
// force-promote builds the fused op a composite names (value and mask as its has_* attributes say); auto, the pass's
// default, inlines the decomposition. A Wormhole target never gets the Blackhole-only indexer kernel.

#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 8x8, coord_translation_offsets = 18x18, l1_size = 1499136, num_dram_channels = 12, dram_channel_size = 1073741824, noc_l1_address_align_bytes = 16, pcie_address_align_bytes = 32, noc_dram_address_align_bytes = 32, l1_unreserved_base = 1024, erisc_l1_unreserved_base = 1024, dram_unreserved_base = 1024, dram_unreserved_end = 1073741824, supported_data_types = [<f32>, <f16>, <bf16>, <bfp_f8>, <bfp_bf8>, <bfp_f4>, <bfp_bf4>, <bfp_f2>, <bfp_bf2>, <u32>, <u16>, <u8>, <si32>], supported_tile_sizes = [ 4x16,  16x16,  32x16,  4x32,  16x32,  32x32], dst_physical_size_tiles = 16, num_cbs = 32, num_compute_threads = 1, num_datamovement_threads = 2, dram_grid = 1x12, dram_bank_to_logical_worker_noc0 = [(7, 3), (0, 0), (3, 0), (4, 0), (0, 4), (7, 7), (1, 4), (6, 4), (5, 4), (2, 6), (3, 4), (4, 4)], dram_bank_to_logical_worker_noc1 = [(7, 3), (0, 0), (3, 0), (4, 0), (0, 4), (7, 7), (1, 4), (6, 4), (5, 4), (2, 6), (3, 4), (4, 4)]}], [0], [1 : i32], [ 0x0x0x0]>
module attributes {ttcore.system_desc = #system_desc} {
  // PROMOTE-LABEL: func.func @masked
  // PROMOTE: "ttnn.flash_mla_prefill"(%arg0, %arg1, %arg2) <{head_dim_v = 16 : ui32, is_causal = false, operandSegmentSizes = array<i32: 1, 1, 0, 1>, scale = 5.000000e-01 : f32}>
  // INLINE-LABEL: func.func @masked
  // INLINE: "ttir.slice_static"(%arg1)
  func.func @masked(%q: tensor<1x2x32x32xbf16>, %k: tensor<1x1x32x32xbf16>, %m: tensor<1x1x32x32xbf16>) -> tensor<1x2x32x16xbf16> {
    %0 = "ttcore.composite"(%q, %k, %m) <{composite_name = "flash_mla_prefill", decomposition = @part, composite_attributes = {head_dim_v = 16 : ui32, is_causal = false, scale = 5.000000e-01 : f32, has_value = false, has_attention_mask = true}}> : (tensor<1x2x32x32xbf16>, tensor<1x1x32x32xbf16>, tensor<1x1x32x32xbf16>) -> tensor<1x2x32x16xbf16>
    return %0 : tensor<1x2x32x16xbf16>
  }
  func.func private @part(%q: tensor<1x2x32x32xbf16>, %k: tensor<1x1x32x32xbf16>, %m: tensor<1x1x32x32xbf16>) -> tensor<1x2x32x16xbf16> {
    %0 = "ttir.slice_static"(%k) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 1 : i32, 32 : i32, 16 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x1x32x32xbf16>) -> tensor<1x1x32x16xbf16>
    %1 = "ttir.broadcast"(%0) <{broadcast_dimensions = array<i64: 1, 2, 1, 1>}> : (tensor<1x1x32x16xbf16>) -> tensor<1x2x32x16xbf16>
    return %1 : tensor<1x2x32x16xbf16>
  }
  // PROMOTE-LABEL: func.func @scores
  // PROMOTE-NOT: "ttnn.indexer_score_dsa"
  // PROMOTE: "ttir.relu"
  func.func @scores(%q: tensor<1x2x32x32xbf16>, %k: tensor<1x1x32x32xbf16>, %w: tensor<1x2x32x1xbf16>) -> tensor<1x1x32x32xbf16> {
    %0 = "ttcore.composite"(%q, %k, %w) <{composite_name = "indexer_score_dsa", decomposition = @relu_of_key, composite_attributes = {chunk_start_idx = 0 : ui32}}> : (tensor<1x2x32x32xbf16>, tensor<1x1x32x32xbf16>, tensor<1x2x32x1xbf16>) -> tensor<1x1x32x32xbf16>
    return %0 : tensor<1x1x32x32xbf16>
  }
  func.func private @relu_of_key(%q: tensor<1x2x32x32xbf16>, %k: tensor<1x1x32x32xbf16>, %w: tensor<1x2x32x1xbf16>) -> tensor<1x1x32x32xbf16> {
    %0 = "ttir.relu"(%k) : (tensor<1x1x32x32xbf16>) -> tensor<1x1x32x32xbf16>
    return %0 : tensor<1x1x32x32xbf16>
  }
  // Decompositions no longer used are erased.
  // PROMOTE-NOT: func.func private
  // INLINE-NOT: func.func private
}
// BAD: error: composite-resolution must be one of auto, inline, validate, force-promote, got 'always'
