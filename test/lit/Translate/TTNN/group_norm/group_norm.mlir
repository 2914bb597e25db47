// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% enable-ttnn-decomposition-pass=false" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [1, 1, 64, 32]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [32]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [32]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [1, 1, 64, 32]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.group_norm": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @group_norm(%arg0: tensor<1x1x64x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>) -> tensor<1x1x64x32xf32> {
    %0 = "ttir.group_norm"(%arg0, %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, num_groups = 8 : i64, operandSegmentSizes = array<i32: 1, 0, 1, 1>}> : (tensor<1x1x64x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<1x1x64x32xf32>
    return %0 : tensor<1x1x64x32xf32>
  }
}
