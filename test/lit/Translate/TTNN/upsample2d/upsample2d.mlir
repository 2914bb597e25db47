// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [1, 16, 16, 32]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [1, 32, 32, 32]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.upsample": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @upsample2d(%arg0: tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32> {
    %0 = "ttir.upsample2d"(%arg0) <{mode = "nearest", scale_factor = 2 : si32}> : (tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32>
    return %0 : tensor<1x32x32x32xf32>
  }
}
