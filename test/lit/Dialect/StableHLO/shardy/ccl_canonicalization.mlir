// RUN: ttmlir-opt --split-input-file --shardy-ccl-canonicalization %s | FileCheck %s

// Two identical slices of one all_reduce compute one value: together they still make one reduce_scatter.
// CHECK-LABEL: @twin_slices
// CHECK: %[[RS:.*]] = sdy.reduce_scatter [{"x"}, {}] %{{.*}} out_sharding=<@mesh, [{"x"}, {}]>
// CHECK-NOT: sdy.all_
// CHECK: sdy.return %[[RS]], %[[RS]]
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @twin_slices(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0:2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>] manual_axes={} (%a: tensor<8x16xf32>) {
    %1 = sdy.all_reduce {"x"} %a out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
    %2 = sdy.all_slice [{"x"}, {}] %1 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x16xf32>
    %3 = sdy.all_slice [{"x"}, {}] %1 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x16xf32>
    sdy.return %2, %3 : tensor<8x16xf32>, tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// Slices along different axes are different values: the all_reduce stays.
// CHECK-LABEL: @different_slices
// CHECK: sdy.all_reduce {"x"}
// CHECK: sdy.all_slice [{"x"}, {}]
// CHECK: sdy.all_slice [{}, {"x"}]
// CHECK-NOT: sdy.reduce_scatter
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @different_slices(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0:2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"x"}]>] manual_axes={} (%a: tensor<8x16xf32>) {
    %1 = sdy.all_reduce {"x"} %a out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
    %2 = sdy.all_slice [{"x"}, {}] %1 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x16xf32>
    %3 = sdy.all_slice [{}, {"x"}] %1 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x16xf32>
    sdy.return %2, %3 : tensor<8x16xf32>, tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
}
