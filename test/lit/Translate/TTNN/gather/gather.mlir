// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s

// CHECK-LABEL: "inputs": [
// CHECK: "shape": [32000, 512]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 15]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "shape": [1, 15, 512]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.gather": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @gather(%arg0: tensor<32000x512xf32>, %arg1: tensor<1x15xsi32>) -> tensor<1x15x512xf32> {
    %0 = "ttir.gather"(%arg0, %arg1) <{collapsed_slice_dims = array<i64: 0>, index_vector_dim = 2 : si64, indices_are_sorted = false, offset_dims = array<i64: 2>, operand_batching_dims = array<i64>, slice_sizes = array<i64: 1, 512>, start_index_map = array<i64: 0>, start_indices_batching_dims = array<i64>}> : (tensor<32000x512xf32>, tensor<1x15xsi32>) -> tensor<1x15x512xf32>
    return %0 : tensor<1x15x512xf32>
  }
}
