// RUN: ttmlir-opt --split-input-file --verify-diagnostics --ttir-to-ttmetal-pipeline %s
// Collectives the mesh cannot run are refused at the op when compiling, not at run time.

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @no_such_axis(%a: tensor<64x128xf32>) -> tensor<64x128xf32> {
    // expected-error @+1 {{cluster_axis 2 is not an axis of the 1x2 mesh}}
    %0 = "ttir.all_reduce"(%a) <{cluster_axis = 2 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @gathered_over_one_chip(%a: tensor<64x128xf32>) -> tensor<64x256xf32> {
    // expected-error @+1 {{dim 1 of 128 -> 256 does not match the 1 chip(s) along mesh axis 0 of the 1x2 mesh}}
    %0 = "ttir.all_gather"(%a) <{all_gather_dim = 1 : si32, cluster_axis = 0 : ui32}> : (tensor<64x128xf32>) -> tensor<64x256xf32>
    return %0 : tensor<64x256xf32>
  }
}

// -----

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x4>]>} {
  func.func @scattered_over_the_wrong_axis(%a: tensor<64x128xf32>) -> tensor<64x32xf32> {
    // expected-error @+1 {{dim 1 of 128 -> 32 does not match the 2 chip(s) along mesh axis 0 of the 2x4 mesh}}
    %0 = "ttir.reduce_scatter"(%a) <{cluster_axis = 0 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 1 : si32}> : (tensor<64x128xf32>) -> tensor<64x32xf32>
    return %0 : tensor<64x32xf32>
  }
}

// -----

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @maximal(%a: tensor<64x128xf32>) -> tensor<64x64xf32> {
    // expected-error @+1 {{'ttir.mesh_shard' op Invalid shard_type (maximal) for mesh_shard op.}}
    %0 = "ttir.mesh_shard"(%a) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<maximal>}> : (tensor<64x128xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

// -----

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @no_such_chip(%a: tensor<64x128xf32>) -> tensor<64x128xf32> {
    // expected-error @+1 {{source_target_pairs [0, 1, 1, 2] name a chip outside the 1x2 mesh}}
    %0 = "ttir.collective_permute"(%a) <{source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
