// RUN: ttmlir-opt --verify-diagnostics --split-input-file %s

func.func @extra_operand(%arg0: tensor<1x1x256x512xf32>, %arg1: !ttnn.device, %arg2: tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32> {
  // expected-error @+1 {{'ttnn.distribute_tensor' op expected 2 operands, but found 3}}
  %0 = "ttnn.distribute_tensor"(%arg0, %arg1, %arg2) <{mapper_config = #ttnn.mesh_mapper_config<placements = [<shard, 2 : i32>, <shard, 3 : i32>], mesh_shape_override = [8 : ui32, 4 : ui32]>}> : (tensor<1x1x256x512xf32>, !ttnn.device, tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32>
  return %0 : tensor<1x1x32x128xf32>
}

// -----
func.func @wrong_piece(%arg0: tensor<1x1x256x512xf32>, %arg1: !ttnn.device) -> tensor<1x1x32x512xf32> {
  // expected-error @+1 {{'ttnn.distribute_tensor' op result shape (1, 1, 32, 512) must be (1, 1, 32, 128), the input's piece on one device}}
  %0 = "ttnn.distribute_tensor"(%arg0, %arg1) <{mapper_config = #ttnn.mesh_mapper_config<placements = [<shard, 2 : i32>, <shard, 3 : i32>], mesh_shape_override = [8 : ui32, 4 : ui32]>}> : (tensor<1x1x256x512xf32>, !ttnn.device) -> tensor<1x1x32x512xf32>
  return %0 : tensor<1x1x32x512xf32>
}

// -----
func.func @uneven(%arg0: tensor<1x1x250x512xf32>, %arg1: !ttnn.device) -> tensor<1x1x31x128xf32> {
  // expected-error @+1 {{'ttnn.distribute_tensor' op dimension 2 of size 250 does not split evenly over 8 devices}}
  %0 = "ttnn.distribute_tensor"(%arg0, %arg1) <{mapper_config = #ttnn.mesh_mapper_config<placements = [<shard, 2 : i32>, <shard, 3 : i32>], mesh_shape_override = [8 : ui32, 4 : ui32]>}> : (tensor<1x1x250x512xf32>, !ttnn.device) -> tensor<1x1x31x128xf32>
  return %0 : tensor<1x1x31x128xf32>
}

// -----
func.func @shard_twice(%arg0: tensor<1x1x256x512xf32>, %arg1: !ttnn.device) -> tensor<1x1x256x16xf32> {
  // expected-error @+1 {{'ttnn.distribute_tensor' op placements shard tensor dim 3 on more than one mesh axis}}
  %0 = "ttnn.distribute_tensor"(%arg0, %arg1) <{mapper_config = #ttnn.mesh_mapper_config<placements = [<shard, 3 : i32>, <shard, 3 : i32>], mesh_shape_override = [8 : ui32, 4 : ui32]>}> : (tensor<1x1x256x512xf32>, !ttnn.device) -> tensor<1x1x256x16xf32>
  return %0 : tensor<1x1x256x16xf32>
}

// -----
func.func @composer_dim(%arg0: tensor<1x1x32x128xf32>, %arg1: !ttnn.device) -> tensor<1x1x256x512xf32> {
  // expected-error @+1 {{'ttnn.aggregate_tensor' op composer dims (2, 4) must be dimensions of the rank-4 input}}
  %0 = "ttnn.aggregate_tensor"(%arg0, %arg1) <{composer_config = #ttnn.mesh_composer_config<dims = [2 : i32, 4 : i32], mesh_shape_override = [8 : ui32, 4 : ui32]>}> : (tensor<1x1x32x128xf32>, !ttnn.device) -> tensor<1x1x256x512xf32>
  return %0 : tensor<1x1x256x512xf32>
}

// -----
func.func @composer_shape(%arg0: tensor<1x1x32x128xf32>, %arg1: !ttnn.device) -> tensor<1x1x256x128xf32> {
  // expected-error @+1 {{'ttnn.aggregate_tensor' op result shape (1, 1, 256, 128) must be (1, 1, 256, 512), the chips' values concatenated}}
  %0 = "ttnn.aggregate_tensor"(%arg0, %arg1) <{composer_config = #ttnn.mesh_composer_config<dims = [2 : i32, 3 : i32], mesh_shape_override = [8 : ui32, 4 : ui32]>}> : (tensor<1x1x32x128xf32>, !ttnn.device) -> tensor<1x1x256x128xf32>
  return %0 : tensor<1x1x256x128xf32>
}

// -----
func.func @placement_kind(%arg0: tensor<1x1x256x512xf32>, %arg1: !ttnn.device) -> tensor<1x1x256x512xf32> {
  // expected-error @+1 {{expected one of: replicate, shard}}
  %0 = "ttnn.distribute_tensor"(%arg0, %arg1) <{mapper_config = #ttnn.mesh_mapper_config<placements = [<split, 3 : i32>]>}> : (tensor<1x1x256x512xf32>, !ttnn.device) -> tensor<1x1x256x512xf32>
  return %0 : tensor<1x1x256x512xf32>
}
