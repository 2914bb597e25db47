// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.ge": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @le(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.le"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
