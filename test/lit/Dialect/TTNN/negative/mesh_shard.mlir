// RUN: ttmlir-opt --verify-diagnostics %s

func.func @mesh_shard(%arg0: tensor<1x1x256x512xf32>, %arg1: !ttnn.device, %arg2: tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32> {
  // expected-error @+1 {{'ttnn.mesh_shard' op expected 2 operands, but found 3}}
  %0 = "ttnn.mesh_shard"(%arg0, %arg1, %arg2) <{shard_dims = array<i64: 2, 3>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 8, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x1x256x512xf32>, !ttnn.device, tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32>
  return %0 : tensor<1x1x32x128xf32>
}
