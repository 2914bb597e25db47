// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% mesh-shape=8,4" %s | FileCheck %s --check-prefix=TTNN
// Compiled for one chip, the 8x4 split has no chips to go to: refused, naming the op and the mesh.
// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline %s 2>&1 | FileCheck %s --check-prefix=NO-MESH
// NO-MESH: error: 'ttir.mesh_shard' op splits dimension 2 (256 -> 32) over mesh axis 0, which has 1 chip(s) in the 1x1 mesh; compile for the mesh the model was written for (mesh-shape=Y,X)

// CHECK-LABEL: func.func @mesh_shard
// CHECK: %{{[0-9]+}} = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 2, 3>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 8, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32>
// TTNN: %[[DEV:[0-9]+]] = "ttnn.get_device"
// The split becomes ttnn.distribute_tensor: tensor dim 2 down the mesh's 8 rows, dim 3 along its 4 columns.
// TTNN: "ttnn.distribute_tensor"(%{{.*}}, %[[DEV]])
// TTNN-SAME: mapper_config = #ttnn.mesh_mapper_config<placements = [<shard, 2 : i32>, <shard, 3 : i32>], mesh_shape_override = [8 : ui32, 4 : ui32]>
module {
  func.func @mesh_shard(%arg0: tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32> {
    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 2, 3>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 8, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32>
    return %0 : tensor<1x1x32x128xf32>
  }
}
