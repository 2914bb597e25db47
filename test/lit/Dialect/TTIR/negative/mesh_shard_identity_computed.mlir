// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline="mesh-shape=1,2" %s 2>&1 | FileCheck %s --check-prefix=ERR

// A computed value cannot be "already split": refused.
// ERR: error: Unsupported shard type: identity (only on a presharded function argument)
module {
  func.func @computed(%arg0: tensor<1x512xf32>) -> tensor<1x256xf32> {
    %0 = "ttir.exp"(%arg0) : (tensor<1x512xf32>) -> tensor<1x512xf32>
    %1 = "ttir.mesh_shard"(%0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<identity>}> : (tensor<1x512xf32>) -> tensor<1x256xf32>
    return %1 : tensor<1x256xf32>
  }
}
