// RUN: ttmlir-opt --split-input-file --stablehlo-pipeline="mesh-shape=1,2 automatic-arg-analysis enable-auto-sharding" %s | FileCheck %s

// torch-xla writes shardy as strings in frontend attributes; the pipeline reads them as shardy's own.
// CHECK: sdy.mesh @mesh = <["_axis_0_aux"=1, "_axis_0"=2]>
// CHECK: sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"_axis_0"}, {}]>, <@mesh, [{"_axis_0"}, {}]>]
// CHECK-SAME: (%arg2: tensor<16x32xf32>, %arg3: tensor<16x32xf32>)
module @torch_xla attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22_axis_0\22=2]>}"}} {
  func.func @main(%a: tensor<32x32xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22_axis_0\22}, {}]>"}}, %b: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %0 = stablehlo.multiply %a, %b : tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
}

// -----

// Auto-sharding: of every way to split the arguments, a matmul's activation split by rows and a replicated
// weight need no collective and save the most memory per chip.
// CHECK: sdy.mesh @mesh = <["default"=1, "batch"=2]>
// CHECK: in_shardings=[<@mesh, [{"batch"}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"batch"}, {}]>]
// CHECK-NOT: all_reduce
// CHECK: sdy.return
func.func @main(%x: tensor<256x64xf32>, %w: tensor<64x64xf32>) -> tensor<256x64xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
  return %0 : tensor<256x64xf32>
}
