// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [32, 64]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [32, 64]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK-NOT: "ttnn.to_layout"
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @to_layout(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = ttir.empty() : tensor<32x64xf32>
    %1 = ttir.to_layout %arg0, %0 : tensor<32x64xf32> into tensor<32x64xf32> -> tensor<32x64xf32>
    return %1 : tensor<32x64xf32>
  }
}
