// REQUIRES: stablehlo
// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline %s | FileCheck %s
// sdy.all_slice keeps this device's part of each dim its out_sharding splits, one mesh axis at a time.
// CHECK-LABEL: func.func @all_slice
// CHECK: "ttir.mesh_partition"(%{{.*}}) <{cluster_axis = 0 : ui32, dim = 0 : si32}> : (tensor<8x6xf32>) -> tensor<4x6xf32>
// CHECK: "ttir.mesh_partition"(%{{.*}}) <{cluster_axis = 1 : ui32, dim = 1 : si32}> : (tensor<4x6xf32>) -> tensor<4x2xf32>
module @slices {
  sdy.mesh @mesh = <["x"=2, "y"=3]>
  func.func @all_slice(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%a: tensor<8x6xf32>) {
      %1 = stablehlo.composite "sdy.all_slice" %a {composite_attributes = {out_sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, decomposition = @slice_impl} : (tensor<8x6xf32>) -> tensor<4x2xf32>
      sdy.return %1 : tensor<4x2xf32>
    } : (tensor<8x6xf32>) -> tensor<8x6xf32>
    return %0 : tensor<8x6xf32>
  }
  func.func private @slice_impl(%arg0: tensor<8x6xf32>) -> tensor<4x2xf32> {
    %0 = stablehlo.slice %arg0 [0:4, 0:2] : (tensor<8x6xf32>) -> tensor<4x2xf32>
    return %0 : tensor<4x2xf32>
  }
}
