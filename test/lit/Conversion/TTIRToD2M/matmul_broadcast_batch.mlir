// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// A batched matmul whose batch dims broadcast (A's (3, 1) and B's (2) to the output's (3, 2)): nothing is copied;
// with q = r floordiv Mt the output's matrix, A reads the rows of its matrix q floordiv 2 (A has one matrix per
// output row of batch dim 0), B the rows of its matrix q mod 2 (one per output column of batch dim 1).

// CHECK-DAG: #[[A:map[0-9]*]] = affine_map<(d0, d1, d2) -> (((d0 floordiv 2) floordiv 2) * 2 + d0 mod 2, d2)>
// CHECK-DAG: #[[B:map[0-9]*]] = affine_map<(d0, d1, d2) -> (((d0 floordiv 2) mod 2) * 2 + d2, d1)>
// CHECK-DAG: #[[ONE:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0 mod 2, d2)>
// CHECK-LABEL: func.func @broadcast_batch
// CHECK: d2m.to_layout %arg0, %{{.*}} : tensor<3x1x40x64xbf16> into tensor<1x1x6x2x!ttcore.tile<32x32, bf16>
// CHECK: d2m.to_layout %arg1, %{{.*}} : tensor<2x64x48xbf16> into tensor<1x2x4x1x!ttcore.tile<32x32, bf16>
// CHECK: d2m.generic {block_factors = [], grid = #ttcore.grid<6x2>, indexing_maps = [], iterator_types = []
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #{{.*}}]
// CHECK: d2m.tile_matmul
// CHECK: into tensor<3x2x40x48xbf16>
func.func @broadcast_batch(%a: tensor<3x1x40x64xbf16>, %b: tensor<2x64x48xbf16>) -> tensor<3x2x40x48xbf16> {
  %0 = "ttir.matmul"(%a, %b) : (tensor<3x1x40x64xbf16>, tensor<2x64x48xbf16>) -> tensor<3x2x40x48xbf16>
  return %0 : tensor<3x2x40x48xbf16>
}

// A matrix A against a batch of B: every output matrix reads A's one matrix (rows r mod Mt).
// CHECK-LABEL: func.func @matrix_a
// CHECK: linalg.generic {indexing_maps = [#[[ONE]],
func.func @matrix_a(%a: tensor<40x64xbf16>, %b: tensor<2x64x48xbf16>) -> tensor<2x40x48xbf16> {
  %0 = "ttir.matmul"(%a, %b) : (tensor<40x64xbf16>, tensor<2x64x48xbf16>) -> tensor<2x40x48xbf16>
  return %0 : tensor<2x40x48xbf16>
}
