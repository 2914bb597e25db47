// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection %s | FileCheck %s --check-prefix=GRID
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline -o %t.mlir %s
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// Each op a generic whose indexing maps say how it reads its operands: a column broadcast along the rows, a
// reduction's scaler (one tile a fill generic makes) for every block, a transposed operand, a matmul's B given
// transposed; grid selection spreads each over the grid its output's tiles allow and each operand as its map reads it.

// CHECK-DAG: #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COL:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ONE:map[0-9]*]] = affine_map<(d0, d1) -> (0, 0)>
// CHECK-DAG: #[[T:map[0-9]*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[A:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[BT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @ops
// CHECK: d2m.generic {{{.*}}indexing_maps = [#[[ID]], #[[COL]], #[[ID]]]
// CHECK: "d2m.tile_mul"
// CHECK: d2m.generic {{{.*}}indexing_maps = [#[[ID]]]
// CHECK-NEXT: ins()
// CHECK-NEXT: outs(
// CHECK: arith.constant 7.812500e-03 : f32
// CHECK: d2m.tile_fill
// CHECK: d2m.generic {{{.*}}indexing_maps = [#[[ID]], #[[ONE]], #[[COL]]], iterator_types = [#parallel, #reduction]
// CHECK: "d2m.tile_reduce_mean"(%{{.*}}, %{{.*}}, %{{.*}}) <{reduce_dim = #d2m<reduce_dim R>}>
// CHECK: d2m.generic {{{.*}}indexing_maps = [#[[T]], #[[ID]]]
// CHECK: "d2m.tile_transpose"
// CHECK: "d2m.tile_typecast"(%{{.*}}) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, bf16>
// CHECK: d2m.generic {{{.*}}indexing_maps = [#[[A]], #[[BT]], #[[C]]], iterator_types = [#parallel, #parallel, #reduction]
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[BT]], #[[C]]]
// CHECK: "d2m.tile_matmul"
// GRID-LABEL: func.func @ops
// GRID: d2m.generic {{{.*}}grid = #ttcore.grid<2x4>
// GRID-NEXT: ins({{.*}} : tensor<2x4x1x1x!ttcore.tile<32x32, f32>, #{{.*}}>, tensor<2x1x1x1x!ttcore.tile<32x32, f32>
// GRID: d2m.generic {{{.*}}grid = #ttcore.grid<1x1>
// GRID-NEXT: ins()
// GRID-NEXT: outs(
// GRID: d2m.generic {{{.*}}grid = #ttcore.grid<2x1>
// GRID-NEXT: ins({{.*}} : tensor<2x1x1x4x!ttcore.tile<32x32, f32>, #{{.*}}>, tensor<1x1x1x1x!ttcore.tile<32x32, f32>
// GRID: d2m.generic {{{.*}}grid = #ttcore.grid<4x2>
// GRID-NEXT: ins({{.*}} : tensor<2x4x1x1x!ttcore.tile<32x32, f32>
// GRID: d2m.generic {{{.*}}grid = #ttcore.grid<2x3>
// GRID-NEXT: ins({{.*}} : tensor<2x1x1x4x!ttcore.tile<32x32, f32>, #{{.*}}>, tensor<3x1x1x4x!ttcore.tile<32x32, f32>
// Six programs compute; the host data each reads is tilized on the device first (a program per move of an argument,
// the matmul's two last before it) and each of the four results is untilized for the host by a program of its own
// after the one computing it (the matmul's last).
// TTRT: launch 12: {{[0-9,]+}} cycles on 6 core(s); launch 13: {{[0-9,]+}} cycles on 6 core(s)
// TTRT-NOT: launch 14
func.func @ops(%a: tensor<64x128xf32>, %col: tensor<64x1xf32>, %b: tensor<96x128xf32>) -> (tensor<64x128xf32>, tensor<64x1xf32>, tensor<128x64xbf16>, tensor<64x96xf32>) {
  %0 = "ttir.multiply"(%a, %col) : (tensor<64x128xf32>, tensor<64x1xf32>) -> tensor<64x128xf32>
  %1 = "ttir.mean"(%0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<64x128xf32>) -> tensor<64x1xf32>
  %2 = "ttir.transpose"(%0) <{dim0 = 0 : si32, dim1 = 1 : si32}> : (tensor<64x128xf32>) -> tensor<128x64xf32>
  %3 = "ttir.typecast"(%2) : (tensor<128x64xf32>) -> tensor<128x64xbf16>
  %4 = "ttir.matmul"(%a, %b) <{transpose_b = true}> : (tensor<64x128xf32>, tensor<96x128xf32>) -> tensor<64x96xf32>
  return %0, %1, %3, %4 : tensor<64x128xf32>, tensor<64x1xf32>, tensor<128x64xbf16>, tensor<64x96xf32>
}
