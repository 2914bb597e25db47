// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [1, 32, 64, 512]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 32, 1, 512]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [1, 32, 64, 512]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.paged_update_cache": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @update_cache(%arg0: tensor<1x32x64x512xf32>, %arg1: tensor<1x32x1x512xf32>, %arg2: tensor<1xsi32>) -> tensor<1x32x64x512xf32> {
    "ttir.update_cache"(%arg0, %arg1, %arg2) <{batch_offset = 0 : i32}> : (tensor<1x32x64x512xf32>, tensor<1x32x1x512xf32>, tensor<1xsi32>) -> ()
    return %arg0 : tensor<1x32x64x512xf32>
  }
}
