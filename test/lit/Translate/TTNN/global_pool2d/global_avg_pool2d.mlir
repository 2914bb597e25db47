// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [1, 7, 7, 512]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [1, 1, 1, 512]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.global_avg_pool2d": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @global_avg_pool2d(%arg0: tensor<1x7x7x512xf32>) -> tensor<1x1x1x512xf32> {
    %0 = "ttir.global_avg_pool2d"(%arg0) : (tensor<1x7x7x512xf32>) -> tensor<1x1x1x512xf32>
    return %0 : tensor<1x1x1x512xf32>
  }
}
