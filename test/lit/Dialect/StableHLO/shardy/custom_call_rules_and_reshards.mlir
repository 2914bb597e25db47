// RUN: ttmlir-opt --split-input-file --verify-diagnostics --register-custom-sharding-rule %s
// RUN: ttmlir-opt --split-input-file --register-custom-sharding-rule --sdy-user-priority-propagate --insert-explicit-reshards %s 2>/dev/null | FileCheck %s

// A custom call no rule covers is reported; one whose rule the table has (the combine of expert outputs) or
// whose user wrote one is not. Propagation leaves open (`?`) the dims no user closed; the result of the combine
// stays replicated, its expert outputs split as they come.
// CHECK-LABEL: @rules
// CHECK-NOT: sdy.reshard %arg0
// CHECK: stablehlo.custom_call @tt.all_to_all_combine(%arg0,
// CHECK-SAME: sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}, {?}, {?}]>]>
// CHECK: %[[R:.*]] = sdy.reshard %{{.*}} <@mesh, [{}, {}]>
// CHECK: stablehlo.custom_call @my.kernel(%[[R]])
// CHECK: stablehlo.custom_call @my.kernel_with_rule
// CHECK-SAME: sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>
sdy.mesh @mesh = <["x"=2]>
func.func @rules(%e: tensor<4x2x8x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}, {}]>}, %m: tensor<1x2x8x2xi32>, %map: tensor<1x1x4x2xi32>, %a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<2x1x8x32xbf16>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.custom_call @tt.all_to_all_combine(%e, %m, %map) {mhlo.frontend_attributes = {cluster_axis = "1", num_devices = "2", num_experts_per_tok = "2"}} : (tensor<4x2x8x32xbf16>, tensor<1x2x8x2xi32>, tensor<1x1x4x2xi32>) -> tensor<2x1x8x32xbf16>
  // expected-warning @+1 {{StableHLO CustomCallOp sharding rule is not defined for target 'my.kernel'}}
  %1 = stablehlo.custom_call @my.kernel(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.custom_call @my.kernel_with_rule(%a) {mhlo.frontend_attributes = {"xla.sdy.custom_sharding_rule" = "#sdy.op_sharding_rule<([i, j]) -> ([i, j]) {i=8, j=16}>"}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0, %1, %2 : tensor<2x1x8x32xbf16>, tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// Without a mesh nothing is propagated: no warning.
func.func @no_mesh(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @my.kernel(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A function partitioned by hand is not propagated through: no warning for its calls.
sdy.mesh @mesh = <["x"=2]>
func.func @by_hand(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%b: tensor<4x16xf32>) {
    %1 = stablehlo.custom_call @my.kernel(%b) : (tensor<4x16xf32>) -> tensor<4x16xf32>
    sdy.return %1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A graph partitioned by hand (a manual computation over the mesh's axes) is solved: no reshard goes in, even
// where an annotated op outside it reads a differently split value.
// CHECK-LABEL: @solved
// CHECK-NOT: sdy.reshard
sdy.mesh @mesh = <["x"=2]>
func.func @solved(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%b: tensor<4x16xf32>) {
    sdy.return %b : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.add %0, %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
