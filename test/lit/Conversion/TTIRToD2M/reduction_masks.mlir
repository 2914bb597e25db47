// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection %s | FileCheck %s --check-prefix=GRID
// RUN: not ttmlir-opt --ttcore-register-device --ttir-to-d2m %S/reduction_masks_negative.mlir 2>&1 | FileCheck %S/reduction_masks_negative.mlir
// A reduction's input whose tiles hold padding is masked with the reduction's identity (zero for a sum or mean,
// -inf for a max) before it is reduced; an input in whole tiles is not. A min is -max(-x). Grid selection places
// a mask where its input lies.

// CHECK-LABEL: func.func @unaligned_sum
// CHECK: %[[IN:.*]] = d2m.to_layout %arg0
// CHECK: %[[MASK:.*]] = d2m.mask %[[IN]], %{{.*}} logical_shape = [127, 97] fill_value = <zero>
// CHECK: ins(%[[MASK]], %{{.*}} :
// CHECK: "d2m.tile_reduce_sum"
// GRID-LABEL: func.func @unaligned_sum
// GRID: d2m.mask {{.*}} : tensor<1x4x4x1x!ttcore.tile<32x32, f32>, #{{.*}}> into tensor<1x4x4x1x!ttcore.tile<32x32, f32>, #{{.*}}> -> tensor<1x4x4x1x!ttcore.tile<32x32, f32>
func.func @unaligned_sum(%a: tensor<127x97xf32>) -> tensor<1x97xf32> {
  %0 = "ttir.sum"(%a) <{dim_arg = [0 : i32], keep_dim = true}> : (tensor<127x97xf32>) -> tensor<1x97xf32>
  return %0 : tensor<1x97xf32>
}

// CHECK-LABEL: func.func @unaligned_max
// CHECK: d2m.mask %{{.*}}, %{{.*}} logical_shape = [2, 40, 50] fill_value = <neginf>
// CHECK: "d2m.tile_reduce_max"
func.func @unaligned_max(%a: tensor<2x40x50xbf16>) -> tensor<2x40x1xbf16> {
  %0 = "ttir.max"(%a) <{dim_arg = [2 : i32], keep_dim = true}> : (tensor<2x40x50xbf16>) -> tensor<2x40x1xbf16>
  return %0 : tensor<2x40x1xbf16>
}

// CHECK-LABEL: func.func @aligned_mean
// CHECK-NOT: d2m.mask
// CHECK: "d2m.tile_reduce_mean"
func.func @aligned_mean(%a: tensor<64x96xf32>) -> tensor<64x1xf32> {
  %0 = "ttir.mean"(%a) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<64x96xf32>) -> tensor<64x1xf32>
  return %0 : tensor<64x1xf32>
}

// CHECK-LABEL: func.func @min
// CHECK: "d2m.tile_negative"
// CHECK: "d2m.tile_reduce_max"(%{{.*}}, %{{.*}}, %{{.*}}) <{reduce_dim = #d2m<reduce_dim C>}>
// CHECK: "d2m.tile_negative"
// CHECK-NOT: d2m.generic
// CHECK: return
func.func @min(%a: tensor<64x96xf32>) -> tensor<1x96xf32> {
  %0 = "ttir.min"(%a) <{dim_arg = [0 : i32], keep_dim = true}> : (tensor<64x96xf32>) -> tensor<1x96xf32>
  return %0 : tensor<1x96xf32>
}
