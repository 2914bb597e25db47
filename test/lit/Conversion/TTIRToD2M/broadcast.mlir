// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-generic-fusion %s | FileCheck %s --check-prefix=FUSED
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline -o %t.mlir %s
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// An operand broadcast along a matrix's rows, columns or both is read at block 0 along them and each of its tiles
// spread by a d2m.tile_bcast named after the data it holds (a row, a column, one value); an operand read as it is
// is not. Fused, each input is spread as its composed map reads it, whatever either op spread.

// CHECK-LABEL: func.func @spread
// CHECK: d2m.generic
// CHECK: linalg.generic
// CHECK-NOT: d2m.tile_bcast
// CHECK: "d2m.tile_bcast"(%{{.*}}) <{bcast_type = #d2m<tile_bcast_type col>}> : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
// CHECK-NEXT: "d2m.tile_add"
// CHECK: d2m.generic
// CHECK-NOT: d2m.tile_bcast
// CHECK: "d2m.tile_bcast"(%{{.*}}) <{bcast_type = #d2m<tile_bcast_type col>}>
// CHECK-NEXT: "d2m.tile_mul"
// CHECK: d2m.generic
// CHECK: "d2m.tile_bcast"(%{{.*}}) <{bcast_type = #d2m<tile_bcast_type row>}>
// CHECK-NEXT: "d2m.tile_sub"
// FUSED-LABEL: func.func @spread
// FUSED: "d2m.tile_bcast"(%{{.*}}) <{bcast_type = #d2m<tile_bcast_type col>}>
// FUSED-NEXT: "d2m.tile_bcast"(%{{.*}}) <{bcast_type = #d2m<tile_bcast_type row>}>
// FUSED-NEXT: "d2m.tile_bcast"(%{{.*}}) <{bcast_type = #d2m<tile_bcast_type scalar>}>
// FUSED-NEXT: "d2m.tile_mul"
// FUSED-NEXT: "d2m.tile_add"
// FUSED-NEXT: "d2m.tile_sub"
// TTRT: launch 2: {{[0-9,]+}} cycles on 6 core(s)
func.func @spread(%a: tensor<64x96xf32>, %col: tensor<64x1xf32>, %row: tensor<1x96xf32>, %one: tensor<1x1xf32>) -> tensor<64x96xf32> {
  %0 = "ttir.add"(%a, %col) : (tensor<64x96xf32>, tensor<64x1xf32>) -> tensor<64x96xf32>
  %1 = "ttir.multiply"(%row, %one) : (tensor<1x96xf32>, tensor<1x1xf32>) -> tensor<1x96xf32>
  %2 = "ttir.subtract"(%0, %1) : (tensor<64x96xf32>, tensor<1x96xf32>) -> tensor<64x96xf32>
  return %2 : tensor<64x96xf32>
}
