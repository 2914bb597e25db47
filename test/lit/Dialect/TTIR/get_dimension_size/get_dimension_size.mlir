// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @get_dimension_size
// CHECK: %{{[0-9]+}} = "ttir.get_dimension_size"(%arg0) <{dimension = 1 : i32}> : (tensor<32x64xf32>) -> tensor<1xi32>
module {
  func.func @get_dimension_size(%arg0: tensor<32x64xf32>) -> tensor<1xi32> {
    %0 = "ttir.get_dimension_size"(%arg0) <{dimension = 1 : i32}> : (tensor<32x64xf32>) -> tensor<1xi32>
    return %0 : tensor<1xi32>
  }
}
