// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [32, 64]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.ones": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @ones() -> tensor<32x64xf32> {
    %0 = "ttir.ones"() <{shape = array<i32: 32, 64>}> : () -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
