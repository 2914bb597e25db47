// RUN: ttmlir-opt --split-input-file --stablehlo-pipeline %s | FileCheck %s

// A value every chip holds whole, split for its user: StableHLO has no all_slice, so it is a composite keeping the
// out_sharding (TTIR's mesh_partition) over a decomposition that computes it with an all_to_all of the equal copies.
// CHECK-LABEL: func.func public @whole_value_sliced
// CHECK: %[[S:.*]] = stablehlo.composite "sdy.all_slice" %arg1 {composite_attributes = {out_sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, decomposition = @sdy.all_slice1} : (tensor<8x4xf32>) -> tensor<4x4xf32>
// CHECK: stablehlo.negate %[[S]] : tensor<4x4xf32>
// CHECK: func.func private @sdy.all_slice1(%arg0: tensor<8x4xf32>) -> tensor<4x4xf32>
// CHECK: stablehlo.reshape %arg0 : (tensor<8x4xf32>) -> tensor<2x4x4xf32>
// CHECK: "stablehlo.all_to_all"
// CHECK-SAME: concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64
// CHECK: stablehlo.slice %{{.*}} [0:1, 0:4, 0:4] : (tensor<2x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK: stablehlo.reshape %{{.*}} : (tensor<1x4x4xf32>) -> tensor<4x4xf32>
sdy.mesh @mesh = <["x"=1, "y"=2]>
func.func public @whole_value_sliced(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// A scatter writing whole heads of a head-split cache runs on each chip's heads; a window covering part of a split
// dim (the head size) needs the whole dim first.
// CHECK-LABEL: func.func public @heads
// CHECK-NOT: all_gather
// CHECK: "stablehlo.scatter"
// CHECK: (tensor<1x4x32x16xf32>, tensor<4x1xi64>, tensor<1x4x4x16xf32>) -> tensor<1x4x32x16xf32>
// CHECK-LABEL: func.func public @part_of_head
// CHECK: "stablehlo.all_gather"
// CHECK-SAME: (tensor<1x8x32x8xf32>) -> tensor<1x8x32x16xf32>
// CHECK: "stablehlo.scatter"
// CHECK: (tensor<1x8x32x16xf32>, tensor<4x1xi64>, tensor<1x8x4x8xf32>) -> tensor<1x8x32x16xf32>
sdy.mesh @mesh = <["x"=1, "y"=2]>
func.func public @heads(%cache: tensor<1x8x32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}, {}, {}]>}, %pos: tensor<4x1xi64>, %new: tensor<1x8x4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}, {}, {}]>}) -> tensor<1x8x32x16xf32> {
  %0 = "stablehlo.scatter"(%cache, %pos, %new) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1, 3], inserted_window_dims = [2], scatter_dims_to_operand_dims = [2], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<1x8x32x16xf32>, tensor<4x1xi64>, tensor<1x8x4x16xf32>) -> tensor<1x8x32x16xf32>
  return %0 : tensor<1x8x32x16xf32>
}
func.func public @part_of_head(%cache: tensor<1x8x32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {"y"}]>}, %pos: tensor<4x1xi64>, %new: tensor<1x8x4x8xf32>) -> tensor<1x8x32x16xf32> {
  %0 = "stablehlo.scatter"(%cache, %pos, %new) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1, 3], inserted_window_dims = [2], scatter_dims_to_operand_dims = [2], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<1x8x32x16xf32>, tensor<4x1xi64>, tensor<1x8x4x8xf32>) -> tensor<1x8x32x16xf32>
  return %0 : tensor<1x8x32x16xf32>
}
