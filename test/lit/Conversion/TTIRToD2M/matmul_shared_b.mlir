// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline -o %t.mlir %s
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// A batched A times one B for the whole batch (a matrix, or a batch of ones): A's batch folded into tile rows, B
// read as a 2-d matmul's B, so the generic keeps its maps (a 2-d matmul over A's folded rows) on the grid of the
// output's tiles (32 matrices of one tile row each, on 8 cores).

// CHECK-DAG: #[[A:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[B:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[BT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @weights
// CHECK: d2m.to_layout %arg1, %{{.*}} : tensor<2x1xf32> into tensor<1x1x1x1x!ttcore.tile<32x32, f32>
// CHECK: d2m.generic {block_factors = [1, 1, 1], grid = #ttcore.grid<8x1>, indexing_maps = [#[[A]], #[[B]], #{{.*}}]
// CHECK: d2m.tile_matmul
// CHECK: -> tensor<32x18x1xf32>
// TTRT: program 0 ('weights') loop 0: launch 0: {{[0-9,]+}} cycles on 8 core(s)
func.func @weights(%a: tensor<32x18x2xf32>, %b: tensor<2x1xf32>) -> tensor<32x18x1xf32> {
  %0 = "ttir.matmul"(%a, %b) <{transpose_a = false, transpose_b = false}> : (tensor<32x18x2xf32>, tensor<2x1xf32>) -> tensor<32x18x1xf32>
  return %0 : tensor<32x18x1xf32>
}

// CHECK-LABEL: func.func @batch_of_one_transposed
// CHECK: d2m.generic {block_factors = [1, 1, 1], {{.*}}indexing_maps = [#[[A]], #[[BT]], #{{.*}}]
func.func @batch_of_one_transposed(%a: tensor<2x3x40x64xbf16>, %b: tensor<1x1x96x64xbf16>) -> tensor<2x3x40x96xbf16> {
  %0 = "ttir.matmul"(%a, %b) <{transpose_b = true}> : (tensor<2x3x40x64xbf16>, tensor<1x1x96x64xbf16>) -> tensor<2x3x40x96xbf16>
  return %0 : tensor<2x3x40x96xbf16>
}
