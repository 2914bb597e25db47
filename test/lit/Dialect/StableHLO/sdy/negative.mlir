// RUN: not ttmlir-opt --split-input-file %s 2>&1 | FileCheck %s

// A sharding naming a mesh or an axis nobody defined is a located error.

sdy.mesh @mesh = <["x"=1, "y"=2]>
// CHECK: negative.mlir:[[# @LINE + 1]]:1: error: 'func.func' op arg 0 - unknown mesh: @other
func.func @a(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@other, [{"y"}, {?}]>}) -> tensor<4x8xf32> {
  return %arg0 : tensor<4x8xf32>
}

// -----
sdy.mesh @mesh = <["x"=1, "y"=2]>
// CHECK: negative.mlir:[[# @LINE + 1]]:1: error: 'func.func' op result 0 - unknown axis name: "z"
func.func @b(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {?}]>}) {
  return %arg0 : tensor<4x8xf32>
}

// -----
sdy.mesh @mesh = <["x"=1, "y"=2]>
func.func @c(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: negative.mlir:[[# @LINE + 1]]:8: error: 'sdy.reshard' op sharding doesn't match tensor rank: 1 != 2
  %0 = sdy.reshard %arg0 <@mesh, [{"y"}]> : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----
sdy.mesh @mesh = <["x"=1, "y"=2]>
func.func @d(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: error: 'sdy.manual_computation' op operand shape, corresponding sharding, and region operand shape at index 0 must match. Expected local shape tensor<2x8xf32>, actual local shape tensor<4x8xf32>
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"y"} (%arg1: tensor<4x8xf32>) {
    sdy.return %arg1 : tensor<4x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----
sdy.mesh @mesh = <["x"=1, "y"=2]>
func.func @e(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: error: 'sdy.all_gather' op duplicate axis ref: "y"
  %0 = sdy.all_gather [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {"y"}]> : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----
func.func @e(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: error: 'stablehlo.custom_call' op result - mapping rank must match: 1 != 2
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i]) {i=4, j=8}>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
