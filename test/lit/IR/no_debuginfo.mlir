// RUN: ttmlir-opt %s | FileCheck %s
// Without --mlir-print-debuginfo, locations are dropped from the output.

// CHECK-NOT: loc(
// CHECK: module @named attributes {ttir.custom = "x"} {
// CHECK: "ttir.sigmoid"(%arg0) {ttir.should_hoist} : (tensor<32x32xf32>) -> tensor<32x32xf32>
module @named attributes {ttir.custom = "x"} {
  func.func @modela(%arg0: tensor<32x32xf32> loc("test.py":12:0)) -> tensor<32x32xf32> {
    %0 = "ttir.sigmoid"(%arg0) {ttir.should_hoist} : (tensor<32x32xf32>) -> tensor<32x32xf32> loc(#loc1)
    return %0 : tensor<32x32xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc("test.py":12:0)
#loc1 = loc("test.py:16")
