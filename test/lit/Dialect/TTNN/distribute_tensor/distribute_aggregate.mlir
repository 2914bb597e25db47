// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// A tensor spread over an 8x4 mesh (dim 2 down the rows, dim 3 along the columns) and gathered back; a replicated
// axis may leave its dim out, and the mesh shape override may be absent.
// CHECK-LABEL: func.func @distribute_aggregate
// CHECK: %[[D:[0-9]+]] = "ttnn.distribute_tensor"(%arg0, %arg1) <{mapper_config = #ttnn.mesh_mapper_config<placements = [<shard, 2 : i32>, <shard, 3 : i32>], mesh_shape_override = [8 : ui32, 4 : ui32]>}> : (tensor<1x1x256x512xf32>, !ttnn.device) -> tensor<1x1x32x128xf32>
// CHECK: "ttnn.aggregate_tensor"(%[[D]], %arg1) <{composer_config = #ttnn.mesh_composer_config<dims = [2 : i32, 3 : i32], mesh_shape_override = [8 : ui32, 4 : ui32]>}> : (tensor<1x1x32x128xf32>, !ttnn.device) -> tensor<1x1x256x512xf32>
// CHECK: "ttnn.distribute_tensor"(%arg0, %arg1) <{cq_id = 0 : ui32, mapper_config = #ttnn.mesh_mapper_config<placements = [<replicate>, <shard, 3 : i32>]>}>
// CHECK: "ttnn.aggregate_tensor"(%arg0, %arg1) <{composer_config = #ttnn.mesh_composer_config<dims = [0 : i32]>}>
module {
  func.func @distribute_aggregate(%arg0: tensor<1x1x256x512xf32>, %arg1: !ttnn.device) -> tensor<1x1x256x512xf32> {
    %0 = "ttnn.distribute_tensor"(%arg0, %arg1) <{mapper_config = #ttnn.mesh_mapper_config<placements = [<shard, 2 : i32>, <shard, 3 : i32>], mesh_shape_override = [8 : ui32, 4 : ui32]>}> : (tensor<1x1x256x512xf32>, !ttnn.device) -> tensor<1x1x32x128xf32>
    %1 = "ttnn.aggregate_tensor"(%0, %arg1) <{composer_config = #ttnn.mesh_composer_config<dims = [2 : i32, 3 : i32], mesh_shape_override = [8 : ui32, 4 : ui32]>}> : (tensor<1x1x32x128xf32>, !ttnn.device) -> tensor<1x1x256x512xf32>
    %2 = "ttnn.distribute_tensor"(%arg0, %arg1) <{cq_id = 0 : ui32, mapper_config = #ttnn.mesh_mapper_config<placements = [<replicate>, <shard, 3 : i32>]>}> : (tensor<1x1x256x512xf32>, !ttnn.device) -> tensor<1x1x256x128xf32>
    %3 = "ttnn.aggregate_tensor"(%arg0, %arg1) <{composer_config = #ttnn.mesh_composer_config<dims = [0 : i32]>}> : (tensor<1x1x256x512xf32>, !ttnn.device) -> tensor<1x1x256x512xf32>
    return %1 : tensor<1x1x256x512xf32>
  }
}
