// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @repeat_interleave
// CHECK: %{{[0-9]+}} = "ttnn.repeat_interleave"(%arg0) <{dim = 0 : si32, repeats = 3 : ui32}> : (tensor<4x32xf32>) -> tensor<12x32xf32>
module {
  func.func @repeat_interleave(%arg0: tensor<4x32xf32>) -> tensor<12x32xf32> {
    %0 = "ttnn.repeat_interleave"(%arg0) <{dim = 0 : si32, repeats = 3 : ui32}> : (tensor<4x32xf32>) -> tensor<12x32xf32>
    return %0 : tensor<12x32xf32>
  }
}
