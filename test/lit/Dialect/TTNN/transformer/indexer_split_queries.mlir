// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="mock-system-desc-arch=blackhole composite-resolution=force-promote mesh-shape=1,2" %s | FileCheck %s --check-prefix=SPLIT
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="mock-system-desc-arch=blackhole composite-resolution=force-promote" %s | FileCheck %s --check-prefix=ONE
// The fused indexer counts query positions from chunk_start_idx alone: queries split over a mesh axis of two chips
// (cluster_axis) keep the decomposition, which offsets each chip's positions by its place; on one chip the axis
// holds one piece and the fused op is built.
// (the decomposition's positions are constant: wherever const-eval puts them, no fused op is anywhere)
// SPLIT-NOT: "ttnn.indexer_score_dsa"
// SPLIT: "ttnn.mesh_partition"
// SPLIT-NOT: "ttnn.indexer_score_dsa"
// ONE-LABEL: func.func @split_queries
// ONE: "ttnn.indexer_score_dsa"
module {
  func.func @split_queries(%q: tensor<1x2x32x32xbf16>, %k: tensor<1x1x64x32xbf16>, %w: tensor<1x2x32x1xbf16>) -> tensor<1x1x32x64xbf16> {
    %0 = "ttcore.composite"(%q, %k, %w) <{composite_name = "indexer_score_dsa", decomposition = @positions, composite_attributes = {chunk_start_idx = 0 : ui32, cluster_axis = 1 : ui32}}> : (tensor<1x2x32x32xbf16>, tensor<1x1x64x32xbf16>, tensor<1x2x32x1xbf16>) -> tensor<1x1x32x64xbf16>
    return %0 : tensor<1x1x32x64xbf16>
  }
  func.func private @positions(%q: tensor<1x2x32x32xbf16>, %k: tensor<1x1x64x32xbf16>, %w: tensor<1x2x32x1xbf16>) -> tensor<1x1x32x64xbf16> {
    %0 = "ttir.arange"() <{arange_dimension = 2 : i64, end = 64 : si64, start = 0 : si64, step = 1 : si64}> : () -> tensor<1x1x64x64xbf16>
    %1 = "ttir.mesh_partition"(%0) <{cluster_axis = 1 : ui32, dim = 2 : si32}> : (tensor<1x1x64x64xbf16>) -> tensor<1x1x32x64xbf16>
    return %1 : tensor<1x1x32x64xbf16>
  }
}
