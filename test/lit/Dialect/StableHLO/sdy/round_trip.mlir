// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// Shardy's text reads and prints back unchanged: meshes, shardings on arguments and results, manual
// computations and the collectives inside them. Values in a manual computation's body are numbered after
// the enclosing function's own (%0-%2), as mlir-opt numbers them.

// CHECK: sdy.mesh @mesh = <["x"=1, "y"=2]>
// CHECK: sdy.mesh @single = <[], device_ids=[0]>
sdy.mesh @mesh = <["x"=1, "y"=2]>
sdy.mesh @single = <[], device_ids=[0]>

// CHECK-LABEL: func.func @annotated
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {?}]>}
// CHECK-SAME: -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}p1, {}], replicated={"x"}>})
func.func @annotated(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {?}]>}, %b: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}p1, {}], replicated={"x"}>}) {
  // CHECK: %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"y"}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"x", "y"} (%arg2: tensor<4x16xf32>, %arg3: tensor<8x16xf32>) {
  %0 = sdy.manual_computation(%a, %b) in_shardings=[<@mesh, [{"y"}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"x", "y"} (%la: tensor<4x16xf32>, %lb: tensor<8x16xf32>) {
    // CHECK-NEXT: sdy.all_gather [{"y"}, {}] %arg2 out_sharding=<@mesh, [{}, {}]> : tensor<4x16xf32>
    %1 = sdy.all_gather [{"y"}, {}] %la out_sharding=<@mesh, [{}, {}]> : tensor<4x16xf32>
    // CHECK-NEXT: sdy.all_reduce {"y"} %3 out_sharding=<@mesh, [{}, {}]> : tensor<4x16xf32>
    %2 = sdy.all_reduce {"y"} %1 out_sharding=<@mesh, [{}, {}]> : tensor<4x16xf32>
    // CHECK-NEXT: sdy.all_slice [{}, {"y"}] %4 out_sharding=<@mesh, [{}, {"y"}]> : tensor<4x16xf32>
    %3 = sdy.all_slice [{}, {"y"}] %2 out_sharding=<@mesh, [{}, {"y"}]> : tensor<4x16xf32>
    // CHECK-NEXT: sdy.all_to_all [{"y"}: 1->0] %5 out_sharding=<@mesh, [{"y"}, {}]> : tensor<4x16xf32>
    %4 = sdy.all_to_all [{"y"}: 1->0] %3 out_sharding=<@mesh, [{"y"}, {}]> : tensor<4x16xf32>
    // CHECK-NEXT: sdy.reduce_scatter [{"y"}, {}] %6 out_sharding=<@mesh, [{"y"}, {}]> : tensor<4x16xf32>
    %5 = sdy.reduce_scatter [{"y"}, {}] %4 out_sharding=<@mesh, [{"y"}, {}]> : tensor<4x16xf32>
    // CHECK-NEXT: sdy.constant dense<1.000000e+00> : tensor<4x16xf32>
    %6 = sdy.constant dense<1.0> : tensor<4x16xf32>
    // CHECK-NEXT: sdy.return %7 : tensor<4x16xf32>
    sdy.return %5 : tensor<4x16xf32>
  // CHECK-NEXT: } : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  } : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: sdy.reshard %0 <@mesh, [{}, {"y":(1)2}]> : tensor<8x16xf32>
  %7 = sdy.reshard %0 <@mesh, [{}, {"y":(1)2}]> : tensor<8x16xf32>
  // CHECK: sdy.sharding_constraint %{{.*}} <mesh<["a"=2]>, [{"a"}, {}]> : tensor<8x16xf32>
  %8 = sdy.sharding_constraint %7 <mesh<["a"=2]>, [{"a"}, {}]> : tensor<8x16xf32>
  return %8 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @empty_body
// CHECK: sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
// CHECK-NEXT: sdy.return
// CHECK-NEXT: } : () -> ()
func.func @empty_body() {
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
    sdy.return
  } : () -> ()
  return
}

// Op sharding rules: factors by symbol (i, j, ...), a dim of several factors, the special factor sets, custom.
// CHECK-LABEL: func.func @rules
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=4, k=16} reduction={k}>
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k])->([i, j, k]) {i=2, j=4, k=4} need_replication={k}, custom>
func.func @rules(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<2x4x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=4, k=16} reduction={k}>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.custom_call @foo(%0) {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k])->([i, j, k]) {i=2, j=4, k=4} need_replication={k}, custom>} : (tensor<8x4xf32>) -> tensor<2x4x4xf32>
  return %1 : tensor<2x4x4xf32>
}
