// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @full
// CHECK: %{{[0-9]+}} = "ttir.full"() <{fill_value = 3.500000e+00 : f32, shape = array<i32: 32, 64>}> : () -> tensor<32x64xf32>
// TTNN: "ttnn.full"(%{{[0-9]+}})
// TTNN-SAME: fill_value = 3.500000e+00 : f32
// TTNN-SAME: shape = #ttnn.shape<32x64>
module {
  func.func @full() -> tensor<32x64xf32> {
    %0 = "ttir.full"() <{fill_value = 3.500000e+00 : f32, shape = array<i32: 32, 64>}> : () -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
