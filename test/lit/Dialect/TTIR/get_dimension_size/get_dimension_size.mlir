// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @get_dimension_size
// CHECK: %{{[0-9]+}} = "ttir.get_dimension_size"(%arg0) <{dimension = 1 : i32}> : (tensor<32x64xf32>) -> tensor<1xi32>
// TTNN-NOT: "ttir.get_dimension_size"
// TTNN: "ttnn.full"(%{{[0-9]+}})
// TTNN-SAME: fill_value = 64 : i32
// TTNN-SAME: shape = #ttnn.shape<1>
module {
  func.func @get_dimension_size(%arg0: tensor<32x64xf32>) -> tensor<1xi32> {
    %0 = "ttir.get_dimension_size"(%arg0) <{dimension = 1 : i32}> : (tensor<32x64xf32>) -> tensor<1xi32>
    return %0 : tensor<1xi32>
  }
}
