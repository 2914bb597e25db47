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

// -----
// A device split names a tensor dim per mesh axis: one outside the tensor is refused before any kernel runs.
func.func @dim_outside_tensor(%arg0: tensor<8x64xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{'ttir.mesh_shard' op shard_dims (-1, 65536) must each be -1 or a dimension of the rank-2 input}}
  %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 65536>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<8x64xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----
func.func @maximal(%arg0: tensor<8x64xf32>) -> tensor<8x64xf32> {
  // expected-error @+1 {{'ttir.mesh_shard' op Invalid shard_type (maximal) for mesh_shard op.}}
  %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<maximal>}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}
