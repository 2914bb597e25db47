// REQUIRES: stablehlo
// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline %s -o %t.ttir.mlir
// RUN: FileCheck %s --input-file=%t.ttir.mlir
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %t.ttir.mlir -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=TTRT
// RUN: not ttmlir-opt --stablehlo-to-ttir-pipeline="enable-cpu-fallback=false" %s 2>&1 | FileCheck %s --check-prefix=STRICT
// The CPU fallback: the ops around a dynamic update stay on the device, the update itself is a call of a
// CPU-module function the host runs; without the fallback it is a located error.

// CHECK: ttcore.device_module
// CHECK: "ttir.multiply"
// CHECK: call @cpu_hoisted_stablehlo_dynamic_update_slice_{{[0-9a-f]+}}
// CHECK: "ttir.add"
// CHECK: func.func private @cpu_hoisted_stablehlo_dynamic_update_slice_{{[0-9a-f]+}}
// CHECK: ttcore.cpu_module
// CHECK: func.func @cpu_hoisted_stablehlo_dynamic_update_slice_{{[0-9a-f]+}}
// CHECK-NEXT: stablehlo.dynamic_update_slice
// TTRT: {{.*}}.ttnn: PASS
// STRICT: cpu_fallback.mlir:[[# @LINE + 6]]:8: error: failed to legalize operation 'stablehlo.dynamic_update_slice'

func.func @main(%x: tensor<8x16xf32>, %rows: tensor<2x16xf32>, %at: tensor<i32>) -> tensor<8x16xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %two = stablehlo.constant dense<2.0> : tensor<8x16xf32>
  %0 = stablehlo.multiply %x, %two : tensor<8x16xf32>
  %1 = stablehlo.dynamic_update_slice %0, %rows, %at, %zero : (tensor<8x16xf32>, tensor<2x16xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  %2 = stablehlo.add %1, %x : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
