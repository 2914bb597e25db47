// RUN: ttmlir-opt --stablehlo-pipeline --stablehlo-to-ttir-pipeline %s | FileCheck %s

// JAX's GSPMD form: @Sharding marks and @SPMDFullToShardShape / @SPMDShardToFullShape cut a value into per-chip
// pieces and join them back; both become ttir.mesh_shard on the 1x2 mesh the shardings name.
// CHECK: ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>
// CHECK: "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x32xf32>) -> tensor<32x32xf32>
// CHECK: "ttir.mesh_shard"(%arg1) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}>
// CHECK: "ttir.dot_general"
// CHECK: "ttir.mesh_shard"(%{{.*}}) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x16xf32>) -> tensor<64x16xf32>
module @gspmd_rows attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<64x32xf32>, %w: tensor<32x16xf32>) -> tensor<64x16xf32> {
    %0 = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<64x32xf32>) -> tensor<32x32xf32>
    %2 = stablehlo.custom_call @Sharding(%w) {mhlo.sharding = "{replicated}"} : (tensor<32x16xf32>) -> tensor<32x16xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {mhlo.sharding = "{manual}"} : (tensor<32x16xf32>) -> tensor<32x16xf32>
    %4 = stablehlo.dot_general %1, %3, contracting_dims = [1] x [0] : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %5 = stablehlo.custom_call @Sharding(%4) {mhlo.sharding = "{manual}"} : (tensor<32x16xf32>) -> tensor<32x16xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<32x16xf32>) -> tensor<64x16xf32>
    return %6 : tensor<64x16xf32>
  }
}
