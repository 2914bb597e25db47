// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [8, 64]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [8, 32]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.slice_static": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @index_select(%arg0: tensor<8x64xf32>) -> tensor<8x32xf32> {
    %0 = "ttir.index_select"(%arg0) <{begin = 0 : si32, dim = 1 : si32, length = 2 : si32, stride = 4 : si32}> : (tensor<8x64xf32>) -> tensor<8x32xf32>
    return %0 : tensor<8x32xf32>
  }
}
