// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run --print-input-output-tensors %t.ttnn | FileCheck %s --check-prefix=EXEC

// A hex literal in a float constant is the element's bit pattern, as MLIR prints -inf and NaN; f32 values
// print in MLIR's shortest exact form. A splat is a fill on the device, not element data.
// CHECK-LABEL: func.func @special_values
// CHECK: dense<0xFF800000> : tensor<2x3xf32>
// CHECK: dense<0xFFF0000000000000> : tensor<2x3xf64>
// CHECK: dense<[0x7FC0, -1.500000e+00]> : tensor<2xbf16>
// CHECK: dense<[-1.100000e+00, 2.200000e+00, -3.300000e+00, 0.00999999977]> : tensor<4xf32>
// Constants are const-eval results: made once, in functions before the forward one (the f64 -inf, normalized to
// f32, is the same constant as the f32 one).
// TTNN-DAG: "ttnn.full"{{.*}}fill_value = 0xFF800000 : f32
// TTNN-DAG: "ttnn.constant"{{.*}}dense<[0x7FC0, -1.500000e+00]> : tensor<2xbf16>
// TTNN-LABEL: func.func @special_values(
// EXEC: program 0 output 0:
// EXEC-NEXT: {{\[\[}}-inf, -inf, -inf],
// EXEC: program 0 output 1:
// EXEC-NEXT: {{\[\[}}-inf, -inf, -inf],
// EXEC: program 0 output 2:
// EXEC-NEXT: nan, -1.5000
// EXEC: program 0 output 3:
// EXEC-NEXT: [-1.1000,  2.2000, -3.3000,  0.0100]
module {
  func.func @special_values() -> (tensor<2x3xf32>, tensor<2x3xf64>, tensor<2xbf16>, tensor<4xf32>) {
    %0 = "ttir.constant"() <{value = dense<0xFF800000> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
    %1 = "ttir.constant"() <{value = dense<0xFFF0000000000000> : tensor<2x3xf64>}> : () -> tensor<2x3xf64>
    %2 = "ttir.constant"() <{value = dense<[0x7FC0, -1.5]> : tensor<2xbf16>}> : () -> tensor<2xbf16>
    %3 = "ttir.constant"() <{value = dense<[-1.1, 2.2, -3.3, 0.01]> : tensor<4xf32>}> : () -> tensor<4xf32>
    return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf64>, tensor<2xbf16>, tensor<4xf32>
  }
}
