// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection --d2m-generic-fusion %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection --d2m-generic-fusion="max-dst-physical-size-tiles=2" %s | FileCheck %s --check-prefix=SMALL
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline="enable-elementwise-fusion=true" -o %t.mlir %s
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// neg -> exp -> add (each result used once) is one generic computing the three tile ops in order, the broadcast
// row read through its own map and spread within its tiles; the add's result is also returned, so the sqrt reading it stays a generic of its own.
// With a dst of 2 tiles (one for the math thread), nothing binary fuses.

// CHECK-LABEL: func.func @chain
// CHECK: d2m.generic {{{.*}}grid = #ttcore.grid<2x3>, indexing_maps = [#[[ID:map[0-9]*]], #[[ROW:map[0-9]*]], #[[ID]]]
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]
// CHECK: %[[R:.*]] = "d2m.tile_bcast"(%arg{{[0-9]+}}) <{bcast_type = #d2m<tile_bcast_type row>}>
// CHECK: %[[N:.*]] = "d2m.tile_negative"(%arg
// CHECK: %[[E:.*]] = "d2m.tile_exp"(%[[N]])
// CHECK: "d2m.tile_add"(%[[E]], %[[R]])
// CHECK: d2m.generic
// CHECK: "d2m.tile_sqrt"
// CHECK-NOT: d2m.generic
// SMALL-LABEL: func.func @chain
// SMALL: "d2m.tile_negative"
// SMALL-NEXT: "d2m.tile_exp"
// SMALL-NEXT: linalg.yield
// SMALL: "d2m.tile_add"
// The two inputs are tilized on the device (a program each), two programs compute (the fused one, the sqrt), each
// followed by its result's untilize for the host.
// TTRT: launch 5: {{[0-9,]+}} cycles on 6 core(s)
// TTRT-NOT: launch 6
func.func @chain(%x: tensor<64x96xf32>, %r: tensor<1x96xf32>) -> (tensor<64x96xf32>, tensor<64x96xf32>) {
  %0 = "ttir.neg"(%x) : (tensor<64x96xf32>) -> tensor<64x96xf32>
  %1 = "ttir.exp"(%0) : (tensor<64x96xf32>) -> tensor<64x96xf32>
  %2 = "ttir.add"(%1, %r) : (tensor<64x96xf32>, tensor<1x96xf32>) -> tensor<64x96xf32>
  %3 = "ttir.sqrt"(%2) : (tensor<64x96xf32>) -> tensor<64x96xf32>
  return %2, %3 : tensor<64x96xf32>, tensor<64x96xf32>
}
