// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection %s | FileCheck %s --check-prefix=GRID
// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection --ttir-to-ttmetal-pipeline -o %t.mlir %s
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// TTIR ops as D2M programs on 1x1 grids, then spread over the largest grids their tiles allow; the Metal
// pipeline runs them.

// CHECK: #[[LAYOUT:layout[0-9]*]] = #ttcore.metal_layout<logical_shape = 128x256, dim_alignments = 32x32, collapsed_intervals = dense<{{\[\[}}0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
// CHECK-LABEL: func.func @ops
// CHECK: %[[E:.*]] = d2m.empty() : tensor<1x1x4x8x!ttcore.tile<32x32, bf16>, #[[LAYOUT]]>
// CHECK: %[[A:.*]] = d2m.to_layout %arg0, %[[E]] : tensor<128x256xbf16> into tensor<1x1x4x8x!ttcore.tile<32x32, bf16>
// CHECK: d2m.generic {{{.*}}grid = #ttcore.grid<1x1>{{.*}}threads = [#d2m.thread<unified>]}
// CHECK-NEXT: ins(%[[A]], %{{.*}} : {{.*}})
// CHECK-NEXT: outs(
// CHECK: d2m.remote_load
// CHECK: "d2m.tile_mul"
// CHECK: d2m.remote_store
// CHECK: d2m.to_layout %{{.*}}, %{{.*}} : tensor<1x1x4x8x!ttcore.tile<32x32, bf16>, {{.*}} into tensor<128x256xbf16>
// CHECK: d2m.generic {{{.*}}}
// CHECK-NEXT: ins()
// CHECK-NEXT: outs(
// CHECK: %[[C:.*]] = arith.constant -3.000000e+00 : bf16
// CHECK: d2m.tile_fill(%[[C]]) : bf16 -> <32x32, bf16>
// GRID: d2m.empty() : tensor<4x8x1x1x!ttcore.tile<32x32, bf16>
// GRID: d2m.generic {{{.*}}grid = #ttcore.grid<4x8>
// GRID: d2m.remote_load %{{.*}} %{{.*}}[%{{.*}}, %{{.*}}] : tensor<1x1x!ttcore.tile<32x32, bf16>>, tensor<4x8x1x1x!ttcore.tile<32x32, bf16>
// TTRT: program 0 ('ops') loop 0: launch 0: {{[0-9]+}} cycles on 32 core(s)
func.func @ops(%a: tensor<128x256xbf16>, %b: tensor<128x256xbf16>) -> (tensor<128x256xbf16>, tensor<128x256xbf16>) {
  %0 = "ttir.multiply"(%a, %b) : (tensor<128x256xbf16>, tensor<128x256xbf16>) -> tensor<128x256xbf16>
  %1 = "ttir.full"() <{shape = array<i32: 128, 256>, fill_value = -3.0 : f32}> : () -> tensor<128x256xbf16>
  return %0, %1 : tensor<128x256xbf16>, tensor<128x256xbf16>
}
