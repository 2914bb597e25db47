// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="mesh-shape=1,2" --mlir-print-local-scope %s | FileCheck %s

// An identity split moves nothing: the presharded argument already holds each chip's half, so it takes the half's
// type and no op stands for the split; the gather is an aggregate_tensor.
// CHECK-LABEL: func.func @presharded
// CHECK-SAME: %arg0: tensor<1x256xf32
// CHECK-NOT: distribute_tensor
// CHECK: "ttnn.exp"(%arg0)
// CHECK: "ttnn.aggregate_tensor"
module {
  func.func @presharded(%arg0: tensor<1x512xf32> {ttcore.runtime_tensor_sharding = #ttcore<runtime_tensor_sharding shard_status = <presharded>, local_shape = tensor<1x256xf32>>}) -> tensor<1x512xf32> {
    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<identity>}> : (tensor<1x512xf32>) -> tensor<1x256xf32>
    %1 = "ttir.exp"(%0) : (tensor<1x256xf32>) -> tensor<1x256xf32>
    %2 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x256xf32>) -> tensor<1x512xf32>
    return %2 : tensor<1x512xf32>
  }
}
