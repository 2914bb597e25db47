// RUN: ttmlir-opt --mlir-print-debuginfo %s | FileCheck %s
// RUN: ttmlir-opt --mlir-print-debuginfo %s | ttmlir-opt --mlir-print-debuginfo | FileCheck %s
// Location aliases may be used before they are defined, as upstream files do.

// CHECK: "ttir.add"(%arg0, %arg1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32> loc(#[[ADD:loc[0-9]*]])
// CHECK: "ttir.relu"(%{{[0-9]+}}) : (tensor<32x32xf32>) -> tensor<32x32xf32> loc(#[[RELU:loc[0-9]*]])
// CHECK-DAG: #[[ADD]] = loc("add_2"(#[[FILE:loc[0-9]*]]))
// CHECK-DAG: #[[FILE]] = loc("model.py":12:4)
// CHECK-DAG: #[[RELU]] = loc(fused[#[[FILE]], #[[NAME:loc[0-9]*]]])
// CHECK-DAG: #[[NAME]] = loc("relu_3")
module {
  func.func @forward(%arg0: tensor<32x32xf32>, %arg1: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %0 = "ttir.add"(%arg0, %arg1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32> loc(#loc2)
    %1 = "ttir.relu"(%0) : (tensor<32x32xf32>) -> tensor<32x32xf32> loc(#loc3)
    return %1 : tensor<32x32xf32> loc(#loc1)
  } loc(#loc1)
} loc(#loc1)
#loc1 = loc("model.py":12:4)
#loc2 = loc("add_2"(#loc1))
#loc3 = loc(fused[#loc1, "relu_3"])
