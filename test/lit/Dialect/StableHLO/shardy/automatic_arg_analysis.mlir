// RUN: ttmlir-opt --stablehlo-pipeline="mesh-shape=1,2 automatic-arg-analysis" %s | FileCheck %s
// RUN: not ttmlir-opt --stablehlo-pipeline="mesh-shape=2,2 automatic-arg-analysis" %s 2>&1 | FileCheck %s --check-prefix=BAD

// Batch parallelism: the arguments of the largest rank are split along their first dimension.
// CHECK: sdy.mesh @mesh = <["default"=1, "batch"=2]>
// CHECK: sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"batch"}, {}, {}]>, <@mesh, [{}, {}]>]
// CHECK-SAME: (%arg2: tensor<4x64x32xf32>, %arg3: tensor<64x32xf32>)
// BAD: error: Currently, automatic arg analysis only supports 2d mesh shape and mesh shape dim0 must be 1
func.func public @main(%a: tensor<8x64x32xf32>, %b: tensor<64x32xf32>) -> tensor<8x64x32xf32> {
  %0 = "ttir.relu"(%a) : (tensor<8x64x32xf32>) -> tensor<8x64x32xf32>
  return %0 : tensor<8x64x32xf32>
}
