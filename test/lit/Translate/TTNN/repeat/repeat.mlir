// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [1, 32, 64]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [4, 32, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.repeat": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @repeat(%arg0: tensor<1x32x64xf32>) -> tensor<4x32x128xf32> {
    %0 = "ttir.repeat"(%arg0) <{repeat_dimensions = array<i64: 4, 1, 2>}> : (tensor<1x32x64xf32>) -> tensor<4x32x128xf32>
    return %0 : tensor<4x32x128xf32>
  }
}
