// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection="override-device-shape=1,1" --d2m-generic-fusion="enable-eltwise-reduction-fusion=true" %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection="override-device-shape=1,1" --d2m-generic-fusion %s | FileCheck %s --check-prefix=OFF
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline="enable-eltwise-reduction-fusion=true override-device-shape=1,1" %s | FileCheck %s --check-prefix=METAL
// With enable-eltwise-reduction-fusion, an elementwise program whose result only a reduction over one dim reads is
// computed inside that reduction: the reduction's body applies the producer's tile ops to the tiles it loads, and
// reduces their result into its accumulator, by its scaler read as it was (whole, not spread). A reduction over two
// dims keeps its producer. Without the option, or into an elementwise consumer only, nothing reaches a reduction.
// On the Metal path the reduction's compute kernel runs the fused ops on each step's streamed tiles (the operand
// loaded twice streams in twice), packs their result into a CB of its own, and reduces the tiles of that CB.

// CHECK-LABEL: func.func @square_then_max
// CHECK: d2m.generic {{{.*}}iterator_types = [#reduction, #parallel]
// CHECK: linalg.generic {{{.*}}iterator_types = ["reduction", "parallel"]} ins(%{{.*}}, %{{.*}}, %{{.*}} :
// CHECK-NEXT: ^bb0(%[[X:.*]]: !ttcore.tile<32x32, f32>, %[[X2:.*]]: !ttcore.tile<32x32, f32>, %[[S:.*]]: !ttcore.tile<32x32, f32>, %[[ACC:.*]]: !ttcore.tile<32x32, f32>):
// CHECK-NEXT: %[[SQ:.*]] = "d2m.tile_mul"(%[[X]], %[[X2]])
// CHECK-NEXT: "d2m.tile_reduce_max"(%[[SQ]], %[[S]], %[[ACC]]) <{reduce_dim = #d2m<reduce_dim C>}>
// CHECK-NOT: "d2m.tile_mul"
// OFF-LABEL: func.func @square_then_max
// OFF: "d2m.tile_mul"
// OFF: d2m.generic
// OFF: "d2m.tile_reduce_max"(%arg{{[0-9]+}}, %arg{{[0-9]+}}, %arg{{[0-9]+}})
// METAL-LABEL: func.func @square_then_max
// METAL: "copy_tile"(%[[A:[0-9]+]],
// METAL: "copy_tile"(%[[B:[0-9]+]],
// METAL: "mul_binary_tile"
// METAL: "pack_tile"(%{{[0-9]+}}, %[[MID:[0-9]+]], %{{[0-9]+}})
// METAL: "reduce_init"(%[[MID]],
// METAL: "reduce_tile"(%[[MID]],
func.func @square_then_max(%x: tensor<64x96xf32>) -> tensor<1x96xf32> {
  %0 = "ttir.multiply"(%x, %x) : (tensor<64x96xf32>, tensor<64x96xf32>) -> tensor<64x96xf32>
  %1 = "ttir.max"(%0) <{dim_arg = [0 : i32], keep_dim = true}> : (tensor<64x96xf32>) -> tensor<1x96xf32>
  return %1 : tensor<1x96xf32>
}

// CHECK-LABEL: func.func @exp_then_sum_of_both_dims
// CHECK: "d2m.tile_exp"
// CHECK: d2m.generic {{{.*}}iterator_types = [#reduction, #reduction]
// CHECK: "d2m.tile_reduce_sum"(%arg{{[0-9]+}}, %arg{{[0-9]+}}, %arg{{[0-9]+}})
func.func @exp_then_sum_of_both_dims(%x: tensor<64x96xf32>) -> tensor<1x1xf32> {
  %0 = "ttir.exp"(%x) : (tensor<64x96xf32>) -> tensor<64x96xf32>
  %1 = "ttir.sum"(%0) <{dim_arg = [0 : i32, 1 : i32], keep_dim = true}> : (tensor<64x96xf32>) -> tensor<1x1xf32>
  return %1 : tensor<1x1xf32>
}
