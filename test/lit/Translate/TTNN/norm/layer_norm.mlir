// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [4, 32, 64]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [64]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [64]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [4, 32, 64]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.layer_norm": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @layer_norm(%arg0: tensor<4x32x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64xf32>) -> tensor<4x32x64xf32> {
    %0 = "ttir.layer_norm"(%arg0, %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, normalized_shape = array<i64: 64>, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<4x32x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<4x32x64xf32>
    return %0 : tensor<4x32x64xf32>
  }
}
