// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @rand
// CHECK: %{{[0-9]+}} = "ttir.rand"() <{dtype = f32, high = 1.000000e+00 : f32, low = 0.000000e+00 : f32, seed = 0 : ui32, size = [32 : i32, 64 : i32]}> : () -> tensor<32x64xf32>
// TTNN: "ttnn.rand"(%{{[0-9]+}})
// TTNN-SAME: seed = 0 : ui32, size = #ttnn.shape<32x64>
module {
  func.func @rand() -> tensor<32x64xf32> {
    %0 = "ttir.rand"() <{dtype = f32, high = 1.000000e+00 : f32, low = 0.000000e+00 : f32, seed = 0 : ui32, size = [32 : i32, 64 : i32]}> : () -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
