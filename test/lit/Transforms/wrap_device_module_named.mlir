// RUN: ttmlir-opt --ttcore-wrap-device-module %s | FileCheck %s

// A named module: the inner module is named as it is (upstream copies the name with the attributes), and the
// top-level module keeps its name.
// CHECK: module @jit_named {
// CHECK-NEXT: ttcore.device_module {
// CHECK-NEXT: builtin.module @jit_named attributes {mhlo.num_partitions = 1 : i32} {
module @jit_named attributes {mhlo.num_partitions = 1 : i32} {
  func.func @relu(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %0 = "ttir.relu"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
}
