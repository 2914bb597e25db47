// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection "--d2m-reblock-generics=test-buffer-size-policy=min" %s | FileCheck %s
// Generics in tensor form are reblocked alike: the operands through views, the region's tensor.empty blocks and
// the loads' results of the new block shape; the generic's result is its reblocked output.

// CHECK-LABEL: func.func @mm
// CHECK: %[[A:.*]] = d2m.view_layout %{{.*}} : tensor<2x1x1x64x!ttcore.tile<32x32, bf16>, #{{[a-z0-9_]+}}> -> tensor<2x64x1x1x!ttcore.tile<32x32, bf16>, #{{[a-z0-9_]+}}>
// CHECK: %[[B:.*]] = d2m.view_layout %{{.*}} : tensor<1x8x64x1x!ttcore.tile<32x32, bf16>, #{{[a-z0-9_]+}}> -> tensor<64x8x1x1x!ttcore.tile<32x32, bf16>, #{{[a-z0-9_]+}}>
// CHECK: d2m.generic {block_factors = [1, 1, 64], grid = #ttcore.grid<2x8>
// CHECK-NEXT: ins(%[[A]], %[[B]] :
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x1x!ttcore.tile<32x32, bf16>>
// CHECK-NEXT: d2m.remote_load %[[E]] %[[A]][{{.*}}] : {{.*}} -> tensor<1x1x!ttcore.tile<32x32, bf16>>
func.func @mm(%x: tensor<64x2048xbf16>, %w: tensor<2048x256xbf16>) -> tensor<64x256xbf16> {
  %0 = "ttir.matmul"(%x, %w) : (tensor<64x2048xbf16>, tensor<2048x256xbf16>) -> tensor<64x256xbf16>
  return %0 : tensor<64x256xbf16>
}
