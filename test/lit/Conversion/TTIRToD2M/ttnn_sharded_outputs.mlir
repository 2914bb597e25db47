// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m="ttnn-mode=true" --d2m-grid-selection="ttnn-mode=true" --canonicalize %s | FileCheck %s
// In ttnn-mode an op whose result TTNN does not hold computes into an L1 tensor of the program's; the
// ttir.to_layout after it moves that tensor into the TTNN one. Grid selection spreads the program over the
// grid its tiles divide and reads each TTNN operand through a view reblocking it onto that grid.

#l1 = #ttnn.buffer_type<l1>
// Block-sharded on one core: 8x8 tiles, computed on 8x8 cores.
#one_core = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x8x!ttcore.tile<32x32, f32>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (0, 0)>]>>
// Height-sharded over 6x2 cores: a column of 12 shards of one tile row each.
#height = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <6x2>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (1, 5)>]>>

module {
  // CHECK-LABEL: func.func @block_sharded
  // CHECK: %[[IN:.*]] = ttir.ttnn_metal_layout_cast %arg0 : {{.*}} -> tensor<1x1x8x8x!ttcore.tile<32x32, f32>
  // CHECK: %[[OUT:.*]] = d2m.empty() : tensor<8x8x1x1x!ttcore.tile<32x32, f32>
  // CHECK: %[[VIEW:.*]] = d2m.view_layout %[[IN]] remapping = {{.*}} -> tensor<8x8x1x1x!ttcore.tile<32x32, f32>
  // CHECK: %[[R:.*]] = d2m.generic {{.*}}grid = #ttcore.grid<8x8>
  // CHECK-NEXT: ins(%[[VIEW]] :
  // CHECK-NEXT: outs(%[[OUT]] :
  // CHECK: %[[DEST:.*]] = d2m.empty() : tensor<256x256xf32, #ttnn_layout>
  // CHECK: %[[DEST_METAL:.*]] = ttir.ttnn_metal_layout_cast %[[DEST]] : {{.*}} -> tensor<1x1x8x8x!ttcore.tile<32x32, f32>
  // CHECK: %[[MOVED:.*]] = d2m.to_layout %[[R]], %[[DEST_METAL]]
  // CHECK: %[[BACK:.*]] = ttir.ttnn_metal_layout_cast %[[MOVED]] : {{.*}} -> tensor<256x256xf32, #ttnn_layout>
  // CHECK: return %[[BACK]]
  func.func @block_sharded(%arg0: tensor<256x256xf32, #one_core>) -> tensor<256x256xf32, #one_core> {
    %0 = "ttir.abs"(%arg0) : (tensor<256x256xf32, #one_core>) -> tensor<256x256xf32>
    %1 = ttir.empty() : tensor<256x256xf32, #one_core>
    %2 = ttir.to_layout %0, %1 : tensor<256x256xf32> into tensor<256x256xf32, #one_core> -> tensor<256x256xf32, #one_core>
    return %2 : tensor<256x256xf32, #one_core>
  }

  // CHECK-LABEL: func.func @height_sharded
  // The 12x1 grid of shards folded row by row onto the 6x2 cores.
  // CHECK: ttir.ttnn_metal_layout_cast %arg0 {virtual_grid_forward_mapping = {{.*}}, virtual_grid_inverse_mapping = {{.*}}} : {{.*}} -> tensor<12x1x1x2x!ttcore.tile<32x32, bf16>
  // CHECK: d2m.generic {{.*}}grid = #ttcore.grid<6x2>
  func.func @height_sharded(%arg0: tensor<384x64xbf16, #height>) -> tensor<384x64xbf16, #height> {
    %0 = "ttir.abs"(%arg0) : (tensor<384x64xbf16, #height>) -> tensor<384x64xbf16>
    %1 = ttir.empty() : tensor<384x64xbf16, #height>
    %2 = ttir.to_layout %0, %1 : tensor<384x64xbf16> into tensor<384x64xbf16, #height> -> tensor<384x64xbf16, #height>
    return %2 : tensor<384x64xbf16, #height>
  }
}
