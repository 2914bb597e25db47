// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [4, 32, 64]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [4, 1, 64]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK-DAG: "ttnn.sum": 1
// CHECK-DAG: "ttnn.ne": 2
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @reduce_or(%arg0: tensor<4x32x64xf32>) -> tensor<4x1x64xf32> {
    %0 = "ttir.reduce_or"(%arg0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<4x32x64xf32>) -> tensor<4x1x64xf32>
    return %0 : tensor<4x1x64xf32>
  }
}
