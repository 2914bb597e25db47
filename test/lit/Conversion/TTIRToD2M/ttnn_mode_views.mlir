// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m="ttnn-mode=true" %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m="ttnn-mode=true" --d2m-grid-selection="ttnn-mode=true" %s | FileCheck %s --check-prefix=SELECTED
// In ttnn-mode each TTNN operand is seen as a metal tensor where TTNN holds it and viewed on the grid the program
// reads it on: here the program writes a tensor TTNN holds on 8x8 cores, so the input TTNN holds on one core is
// reblocked onto 8x8 and the output is viewed as it is. Grid selection then reads the output directly.

#l1 = #ttnn.buffer_type<l1>
#one_core = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x8x!ttcore.tile<32x32, f32>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (0, 0)>]>>
#all_cores = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, f32>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>

// CHECK-LABEL: func.func @reblocked_input
// CHECK: %[[MADE:.*]] = d2m.empty() : tensor<256x256xf32, #ttnn_layout1>
// CHECK: %[[IN:.*]] = ttir.ttnn_metal_layout_cast %arg0 : {{.*}} -> tensor<1x1x8x8x!ttcore.tile<32x32, f32>
// CHECK: %[[IN_VIEW:.*]] = d2m.view_layout %[[IN]] remapping = #{{.*}} : tensor<1x1x8x8x{{.*}} -> tensor<8x8x1x1x!ttcore.tile<32x32, f32>
// CHECK: %[[OUT:.*]] = ttir.ttnn_metal_layout_cast %[[MADE]] : {{.*}} -> tensor<8x8x1x1x!ttcore.tile<32x32, f32>
// CHECK: %[[OUT_VIEW:.*]] = d2m.view_layout %[[OUT]] remapping = #{{.*}} : tensor<8x8x1x1x{{.*}} -> tensor<8x8x1x1x!ttcore.tile<32x32, f32>
// CHECK: d2m.generic {{.*}}grid = #ttcore.grid<8x8>
// CHECK-NEXT: ins(%[[IN_VIEW]] :
// CHECK-NEXT: outs(%[[OUT_VIEW]] :

// SELECTED-LABEL: func.func @reblocked_input
// SELECTED: %[[MADE:.*]] = d2m.empty()
// SELECTED: %[[OUT:.*]] = ttir.ttnn_metal_layout_cast %[[MADE]]
// SELECTED-NOT: d2m.view_layout %[[OUT]]
// SELECTED: d2m.generic {{.*}}grid = #ttcore.grid<8x8>
// SELECTED-NEXT: ins(%{{.*}} :
// SELECTED-NEXT: outs(%[[OUT]] :
func.func @reblocked_input(%arg0: tensor<256x256xf32, #one_core>) -> tensor<256x256xf32, #all_cores> {
  %0 = "ttir.abs"(%arg0) : (tensor<256x256xf32, #one_core>) -> tensor<256x256xf32, #all_cores>
  return %0 : tensor<256x256xf32, #all_cores>
}
