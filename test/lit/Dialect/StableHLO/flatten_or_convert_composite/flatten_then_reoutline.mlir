// REQUIRES: stablehlo
// RUN: ttmlir-opt --flatten-or-convert-composites %s | FileCheck %s --check-prefix=FLAT
// RUN: ttmlir-opt --flatten-or-convert-composites --reoutline-composite %s | FileCheck %s --check-prefix=BACK
// In a sharded module a composite without a sharding rule is flattened with reoutline marks, and
// --reoutline-composite puts it back together: same name, attributes, operand and result order.

sdy.mesh @mesh = <["x"=2]>
// FLAT-LABEL: func.func @main
// FLAT: stablehlo.custom_call @tenstorrent.rms_norm(%arg0, %arg2) {tt.composite_attributes = {epsilon = {{.*}} : f32}, tt.has_custom_sharding}
// FLAT: stablehlo.multiply %arg1, %arg0 {reoutline.arg_operand_indices = array<i64: 1, 0>, reoutline.comp_attrs = {k = 3 : i64}, reoutline.group = "composite_my.pair.impl", reoutline.orig_name = "my.pair", reoutline.seed}
// FLAT-NEXT: stablehlo.subtract %arg0, %{{.*}} {reoutline.arg_operand_indices = array<i64: 0, -1>, reoutline.group = "composite_my.pair.impl", reoutline.result_pos = array<i64: 1>}
// FLAT-NEXT: stablehlo.negate %{{.*}} {reoutline.group = "composite_my.pair.impl", reoutline.result_pos = array<i64: 0>}
// the decompositions nothing calls any more are erased
// FLAT-NOT: func.func private

// BACK-LABEL: func.func @main
// BACK: %[[C:.*]]:2 = stablehlo.composite "my.pair" %arg0, %arg1 {composite_attributes = {k = 3 : i64}, decomposition = @outlined_composite_my.pair.impl} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
// BACK: return %{{.*}}, %[[C]]#1, %[[C]]#0
// BACK: func.func private @outlined_composite_my.pair.impl(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
// BACK-NEXT: %[[M:.*]] = stablehlo.multiply %arg1, %arg0 : tensor<8xf32>
// BACK-NEXT: %[[S:.*]] = stablehlo.subtract %arg0, %[[M]] : tensor<8xf32>
// BACK-NEXT: %[[N:.*]] = stablehlo.negate %[[S]] : tensor<8xf32>
// BACK-NEXT: return %[[N]], %[[S]]
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %b: tensor<8xf32>, %w: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %n = stablehlo.composite "tenstorrent.rms_norm" %a, %w {composite_attributes = {epsilon = 1.0e-05 : f32}, decomposition = @norm.impl} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %p:2 = stablehlo.composite "my.pair" %a, %b {composite_attributes = {k = 3 : i64}, decomposition = @my.pair.impl} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %n, %p#1, %p#0 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
func.func private @norm.impl(%x: tensor<8xf32>, %g: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.multiply %x, %g : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @my.pair.impl(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.multiply %y, %x : tensor<8xf32>
  %1 = stablehlo.subtract %x, %0 : tensor<8xf32>
  %2 = stablehlo.negate %1 : tensor<8xf32>
  return %2, %1 : tensor<8xf32>, tensor<8xf32>
}
