// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.mesh_shard' op requires a single operand}}
module {
  func.func @mesh_shard(%arg0: tensor<1x1x256x512xf32>, %arg1: tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32> {
    %0 = "ttir.mesh_shard"(%arg0, %arg1) <{shard_dims = array<i64: 2, 3>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 8, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x1x256x512xf32>, tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32>
    return %0 : tensor<1x1x32x128xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.mesh_shard' op requires attribute 'shard_type'}}
module {
  func.func @mesh_shard(%arg0: tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32> {
    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 2, 3>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 8, 4>}> : (tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32>
    return %0 : tensor<1x1x32x128xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.mesh_shard' op attribute 'shard_type' failed to satisfy constraint}}
module {
  func.func @mesh_shard(%arg0: tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32> {
    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 2, 3>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 8, 4>, shard_type = "oops"}> : (tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32>
    return %0 : tensor<1x1x32x128xf32>
  }
}
