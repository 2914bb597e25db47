// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% mesh-shape=8,4" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [1, 1, 256, 512]
// CHECK: "data_type": "f32"
// CHECK: "layout": "row_major"
// CHECK: "buffer_type": "system_memory"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [1, 1, 32, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.distribute_tensor": 1
// CHECK-LABEL: "mesh_shape": [8, 4]
module {
  func.func @mesh_shard(%arg0: tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32> {
    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 2, 3>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 8, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32>
    return %0 : tensor<1x1x32x128xf32>
  }
}
