// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [1, 30, 30]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [1, 32, 32]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.pad": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @pad(%arg0: tensor<1x30x30xf32>) -> tensor<1x32x32xf32> {
    %0 = "ttir.pad"(%arg0) <{padding = array<i32: 0, 0, 1, 1, 2, 0>, value = 0.000000e+00 : f32}> : (tensor<1x30x30xf32>) -> tensor<1x32x32xf32>
    return %0 : tensor<1x32x32xf32>
  }
}
