// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% enable-const-eval=false" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=EXEC
// A quantized tensor is stored as its storage integers (si32 here).

// CHECK-LABEL: "outputs": [
// CHECK: "shape": [2, 3, 32, 32]
// CHECK: "data_type": "si32"
// CHECK-LABEL: "op_stats": [
// CHECK-DAG: "ttnn.quantize": 1
// CHECK-DAG: "ttnn.dequantize": 1
// EXEC: PASS
module {
  func.func @round_trip(%arg0: tensor<2x3x32x32xf32>) -> (tensor<2x3x32x32x!quant.uniform<i32:f32:1, {0.1, 0.2:4, 0.3}>>, tensor<2x3x32x32xf32>) {
    %0 = "ttir.quantize"(%arg0) : (tensor<2x3x32x32xf32>) -> tensor<2x3x32x32x!quant.uniform<i32:f32:1, {0.1, 0.2:4, 0.3}>>
    %1 = "ttir.dequantize"(%0) : (tensor<2x3x32x32x!quant.uniform<i32:f32:1, {0.1, 0.2:4, 0.3}>>) -> tensor<2x3x32x32xf32>
    return %0, %1 : tensor<2x3x32x32x!quant.uniform<i32:f32:1, {0.1, 0.2:4, 0.3}>>, tensor<2x3x32x32xf32>
  }
}
