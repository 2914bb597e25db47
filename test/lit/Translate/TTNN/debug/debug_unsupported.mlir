// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s -o %t.mlir
// RUN: not ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn 2>&1 | FileCheck %s
// RUN: not test -e %t.ttnn
// A debug op the runtime has no meaning for is refused at translation, where it stands.

module {
  func.func @snapshot(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
    // CHECK: error: 'debug.snapshot' cannot be serialized to a TTNN flatbuffer: the runtime has no such op (it runs debug.annotate, debug.breakpoint,
    %0 = "debug.snapshot"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %1 = "ttir.sigmoid"(%0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    return %1 : tensor<32x32xf32>
  }
}
