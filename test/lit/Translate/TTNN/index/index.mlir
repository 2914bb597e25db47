// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [8, 64]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [8, 16]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.slice_static": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @index(%arg0: tensor<8x64xf32>) -> tensor<8x16xf32> {
    %0 = "ttir.index"(%arg0) <{begin = 0 : i32, dim = 1 : i32, end = 32 : i32, step = 2 : i32}> : (tensor<8x64xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
