// RUN: ttmlir-opt --convert-ttnn-to-ttir %s | FileCheck %s
// TTNN spells some properties otherwise than TTIR (a reduction's one dimension, argmax's `dim`, a creation op's
// #ttnn.shape and device operand); the hoisted op gets TTIR's spelling.

#l1 = #ttnn.buffer_type<l1>
#layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #l1>, <block_sharded>, core_ranges = #ttnn.core_range_set<[#ttnn.core_range<(0, 0), (0, 0)>]>>
#layout1 = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #l1>, <block_sharded>, core_ranges = #ttnn.core_range_set<[#ttnn.core_range<(0, 0), (0, 0)>]>>
#layout2 = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x1x!ttcore.tile<32x32, si32>, #l1>, <block_sharded>, core_ranges = #ttnn.core_range_set<[#ttnn.core_range<(0, 0), (0, 0)>]>>

func.func @spellings(%a: tensor<32x32xf32, #layout>) -> (tensor<32xf32, #layout1>, tensor<32xi32, #layout2>, tensor<32x32xf32, #layout>) {
  // CHECK: "ttir.prod"(%arg0) <{dim_arg = [1 : i32], keep_dim = false}>
  %0 = "ttnn.prod"(%a) {ttnn.hoist_generic_via_d2m, dim_arg = 1 : si64, keep_dim = false} : (tensor<32x32xf32, #layout>) -> tensor<32xf32, #layout1>
  // CHECK: "ttir.argmax"(%arg0) <{dim_arg = [0 : i32], keep_dim = false}>
  %1 = "ttnn.argmax"(%a) {ttnn.hoist_generic_via_d2m, dim = 0 : si32, keep_dim = false} : (tensor<32x32xf32, #layout>) -> tensor<32xi32, #layout2>
  %device = "ttnn.get_device"() <{mesh_offset = #ttnn<mesh_offset 0x0>, mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
  // CHECK: "ttir.full"() <{fill_value = 2.000000e+00 : f32, shape = array<i32: 32, 32>}>
  %2 = "ttnn.full"(%device) <{fill_value = 2.000000e+00 : f32, layout = #ttnn.layout<tile>, shape = #ttnn.shape<32x32>}> {ttnn.hoist_generic_via_d2m} : (!ttnn.device) -> tensor<32x32xf32, #layout>
  // CHECK: "ttir.matmul"(%arg0, %{{[0-9]+}}) <{transpose_a = false, transpose_b = true}>
  %3 = "ttnn.matmul"(%a, %2) {ttnn.hoist_generic_via_d2m, transpose_a = false, transpose_b = true} : (tensor<32x32xf32, #layout>, tensor<32x32xf32, #layout>) -> tensor<32x32xf32, #layout>
  return %0, %1, %3 : tensor<32xf32, #layout1>, tensor<32xi32, #layout2>, tensor<32x32xf32, #layout>
}

// A change of memory (ttnn.to_tensor_spec) is a ttir.to_layout into an empty tensor of the result's layout.
func.func @memory(%a: tensor<32x32xf32, #layout>) -> tensor<32x32xf32, #layout> {
  // CHECK-LABEL: func.func @memory
  // CHECK: %[[EMPTY:[0-9]+]] = ttir.empty() : tensor<32x32xf32, #ttnn_layout>
  // CHECK: ttir.to_layout %arg0, %[[EMPTY]]
  %0 = "ttnn.to_tensor_spec"(%a) {ttnn.hoist_generic_via_d2m} : (tensor<32x32xf32, #layout>) -> tensor<32x32xf32, #layout>
  return %0 : tensor<32x32xf32, #layout>
}
