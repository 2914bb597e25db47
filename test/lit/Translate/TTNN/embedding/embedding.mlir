// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [32, 16]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [512, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [32, 16, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.embedding": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @embedding(%arg0: tensor<32x16xsi32>, %arg1: tensor<512x128xf32>) -> tensor<32x16x128xf32> {
    %0 = "ttir.embedding"(%arg0, %arg1) : (tensor<32x16xsi32>, tensor<512x128xf32>) -> tensor<32x16x128xf32>
    return %0 : tensor<32x16x128xf32>
  }
}
