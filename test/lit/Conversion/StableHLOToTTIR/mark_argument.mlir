// REQUIRES: stablehlo
// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline %s | FileCheck %s
// torch-xla's tt.mark_argument passes its operand through and names what the argument it marks is (also when it
// marks a reshape of it).
// CHECK: func.func @main(%arg0: tensor<4x8xf32> {ttcore.argument_type = #ttcore.argument_type<input>, ttir.name = "x"}, %arg1: tensor<8xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "w"})
// CHECK-NOT: custom_call
// CHECK: "ttir.multiply"
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.custom_call @tt.mark_argument(%x) {api_version = 0 : i32, mhlo.frontend_attributes = {ttcore.argument_type = "input", ttir.name = "x"}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = stablehlo.reshape %w : (tensor<8xf32>) -> tensor<1x8xf32>
  %2 = stablehlo.custom_call @tt.mark_argument(%1) {api_version = 0 : i32, mhlo.frontend_attributes = {ttcore.argument_type = "parameter", ttir.name = "w"}} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<4x8xf32>
  %4 = stablehlo.multiply %0, %3 : tensor<4x8xf32>
  return %4 : tensor<4x8xf32>
}
