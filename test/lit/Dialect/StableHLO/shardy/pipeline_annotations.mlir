// RUN: ttmlir-opt --split-input-file --stablehlo-pipeline %s | FileCheck %s

// A user's argument sharding spreads through the graph; the body runs per chip on local shapes; a sharding
// constraint moving a split from rows to columns is one all_to_all.

sdy.mesh @mesh = <["y"=2]>
// CHECK: sdy.mesh @mesh = <["y_aux"=1, "y"=2]>
// CHECK-LABEL: func.func public @spread
// CHECK-SAME: %arg0: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>, ttcore.local_shape = #ttcore<local_shape local_shape = tensor<32x32xf32>>, ttcore.shard_status = #ttcore.shard_status<presharded>}
// CHECK-SAME: %arg1: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>, ttcore.local_shape = #ttcore<local_shape local_shape = tensor<64x32xf32>>, ttcore.shard_status = #ttcore.shard_status<unsharded>}
// CHECK: sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"y"}, {}]>, <@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"y_aux", "y"} (%arg2: tensor<32x32xf32>, %arg3: tensor<32x32xf32>)
// CHECK-NEXT: "ttir.add"(%arg2, %arg3) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: "ttir.relu"
// CHECK-NEXT: sdy.return %{{.*}} : tensor<32x32xf32>
func.func public @spread(%a: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %b: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = "ttir.add"(%a, %b) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  %1 = "ttir.relu"(%0) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %1 : tensor<64x32xf32>
}

// -----

sdy.mesh @mesh = <["x"=1, "y"=2]>
// CHECK-LABEL: func.func public @constraint
// CHECK: out_shardings=[<@mesh, [{}, {"y"}]>] manual_axes={"x", "y"} (%arg1: tensor<32x32xf32>)
// CHECK-NEXT: "ttir.relu"(%arg1) : (tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: "stablehlo.all_to_all"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<32x32xf32>) -> tensor<64x16xf32>
// CHECK-NEXT: "ttir.exp"(%2) : (tensor<64x16xf32>) -> tensor<64x16xf32>
// CHECK-NEXT: sdy.return %3 : tensor<64x16xf32>
func.func public @constraint(%a: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<64x32xf32> {
  %0 = "ttir.relu"(%a) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<64x32xf32>
  %2 = "ttir.exp"(%1) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %2 : tensor<64x32xf32>
}

// -----

// Without a mesh, mesh-shape gives one; without annotations nothing is split, and a manual computation over
// one chip is inlined (shardy's canonicalization, at the pipeline's end).
// CHECK: sdy.mesh @mesh = <["x"=1, "y"=1]>
// CHECK-LABEL: func.func public @no_mesh
// CHECK-NOT: sdy.manual_computation
// CHECK: "ttir.relu"(%arg0)
func.func public @no_mesh(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = "ttir.relu"(%a) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
