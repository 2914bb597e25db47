// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [1, 32, 32, 64]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [64, 64, 3, 3]
// CHECK: "data_type": "f32"
// CHECK: "layout": "row_major"
// CHECK: "buffer_type": "system_memory"
// CHECK: "shape": [1, 1, 1, 64]
// CHECK: "data_type": "f32"
// CHECK: "layout": "row_major"
// CHECK: "buffer_type": "system_memory"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [1, 32, 32, 64]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.conv2d": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @conv2d(%arg0: tensor<1x32x32x64xf32>, %arg1: tensor<64x64x3x3xf32>, %arg2: tensor<1x1x1x64xf32>) -> tensor<1x32x32x64xf32> {
    %0 = "ttir.conv2d"(%arg0, %arg1, %arg2) <{dilation = 1 : i32, groups = 1 : i32, padding = 1 : i32, stride = 1 : i32}> : (tensor<1x32x32x64xf32>, tensor<64x64x3x3xf32>, tensor<1x1x1x64xf32>) -> tensor<1x32x32x64xf32>
    return %0 : tensor<1x32x32x64xf32>
  }
}
