// RUN: ttmlir-opt --ttcore-register-device --d2m-lower-to-layout %s | FileCheck %s
// A to_layout whose declared shard is smaller than its layout needs (60x60 aligned to 128x128 on a 2x2 grid is
// 2x2 tiles a core, not 1x1) is made as its layout says; the mask of it masks the tensor as made: its output
// buffer and result take that type.

#src = #ttcore.metal_layout<logical_shape = 60x60, dim_alignments = 128x128, collapsed_intervals = dense<[[0, 1]]> : tensor<1x2xi64>, l1, sharded>
#aligned = #ttcore.metal_layout<logical_shape = 128x128, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>

// CHECK-LABEL: func.func @masked
// CHECK: %[[T:.*]] = d2m.generic
// CHECK: %[[OUT:.*]] = d2m.empty() : tensor<2x2x2x2x!ttcore.tile<32x32, f32>
// CHECK: %[[M:.*]] = d2m.mask %[[T]], %[[OUT]] logical_shape = [60, 60] fill_value = <zero> : tensor<2x2x2x2x!ttcore.tile<32x32, f32>, {{.*}}> into tensor<2x2x2x2x!ttcore.tile<32x32, f32>, {{.*}}> -> tensor<2x2x2x2x!ttcore.tile<32x32, f32>
// CHECK: d2m.view_layout %[[M]] {{.*}}: tensor<2x2x2x2x!ttcore.tile<32x32, f32>, {{.*}}> -> tensor<2x2x2x2x!ttcore.tile<32x32, f32>
func.func @masked(%arg0: tensor<60x60xf32>) -> tensor<2x2x2x2x!ttcore.tile<32x32, f32>, #aligned> {
  %0 = d2m.empty() : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #src>
  %1 = d2m.to_layout %arg0, %0 : tensor<60x60xf32> into tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #src> -> tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #src>
  %2 = d2m.empty() : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #src>
  %3 = d2m.mask %1, %2 logical_shape = [60, 60] fill_value = <zero> : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #src> into tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #src> -> tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #src>
  %4 = d2m.view_layout %3 remapping = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)> {reinterpretLayout = true} : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #src> -> tensor<2x2x2x2x!ttcore.tile<32x32, f32>, #aligned>
  return %4 : tensor<2x2x2x2x!ttcore.tile<32x32, f32>, #aligned>
}
