// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @deallocate
// CHECK: "ttnn.deallocate"(%arg0) <{force = false}> : (tensor<64x128xf32>) -> ()
module {
  func.func @deallocate(%arg0: tensor<64x128xf32>) {
    "ttnn.deallocate"(%arg0) <{force = false}> : (tensor<64x128xf32>) -> ()
    return
  }
}
