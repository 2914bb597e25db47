// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @arange
// CHECK: %{{[0-9]+}} = "ttir.arange"() <{arange_dimension = 0 : i64, end = 32 : si64, start = 0 : si64, step = 2 : si64}> : () -> tensor<16xf32>
// TTNN: "ttnn.arange"(%{{[0-9]+}})
// TTNN-SAME: end = 32 : si64
// TTNN-SAME: start = 0 : si64, step = 2 : si64
// TTNN-SAME: -> tensor<16xf32
module {
  func.func @arange() -> tensor<16xf32> {
    %0 = "ttir.arange"() <{arange_dimension = 0 : i64, end = 32 : si64, start = 0 : si64, step = 2 : si64}> : () -> tensor<16xf32>
    return %0 : tensor<16xf32>
  }
}
