// REQUIRES: stablehlo
// RUN: ttmlir-opt --split-input-file --stablehlo-pipeline --stablehlo-to-ttir-pipeline %s | FileCheck %s
// GSPMD tile assignments on a 2x4 mesh: a transposed device iota (`<=[2,4]T(1,0)`) puts the tensor's 4-way split
// on the mesh's second axis; a replicated last tile dim spans the other axis, so the mesh is 2x4, not 1x8.

// CHECK-LABEL: module @transposed
// CHECK: "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 4, 2>
module @transposed attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x16xf32>) -> tensor<16x16xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"} : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<16x16xf32>) -> tensor<4x8xf32>
    %2 = stablehlo.negate %1 : tensor<4x8xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {backend_config = "", mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"} : (tensor<4x8xf32>) -> tensor<16x16xf32>
    return %4 : tensor<16x16xf32>
  }
}

// -----

// CHECK-LABEL: module @replicated_last
// CHECK: ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x4>]>
// CHECK: "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 0, -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>
module @replicated_last attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x16xf32>) -> tensor<16x16xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<16x16xf32>) -> tensor<8x16xf32>
    %2 = stablehlo.negate %1 : tensor<8x16xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {backend_config = "", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<8x16xf32>) -> tensor<16x16xf32>
    return %4 : tensor<16x16xf32>
  }
}
