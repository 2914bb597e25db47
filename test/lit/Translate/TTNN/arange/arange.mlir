// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [16]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.arange": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @arange() -> tensor<16xf32> {
    %0 = "ttir.arange"() <{arange_dimension = 0 : i64, end = 32 : si64, start = 0 : si64, step = 2 : si64}> : () -> tensor<16xf32>
    return %0 : tensor<16xf32>
  }
}
