// RUN: ttmlir-opt --ttcore-register-device %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all %t.ttnn | FileCheck %s

// A scalar program argument is a one-element u32 host tensor in the binary (its bits), passed to the generic op
// as an additional argument its kernel reads.
// CHECK: "shape": [1],
// CHECK: "data_type": "u32",
// CHECK-NEXT: "layout": "row_major",
// CHECK: "buffer_type": "system_memory",
// CHECK: "ttnn.generic": 1
#dram = #ttnn.buffer_type<dram>
#layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
func.func @scalar(%out: tensor<32x32xf32, #layout>, %s: f32) -> tensor<32x32xf32, #layout> attributes {tt.function_type = "forward_device"} {
  "ttnn.generic"(%out, %s) <{operandSegmentSizes = array<i32: 1, 1>, program = #ttnn.program<kernels = [#ttnn.source_write_kernel<source = "void kernel_main() {}", core_ranges = <[#ttnn.core_range<(0,0), (0,0)>]>, ct_args = [], common_rt_args = [#ttnn.kernel_arg_address_of_tensor<0>, #ttnn.kernel_arg_scalar<1>], rt_args = []>], cbs = [], semaphores = []>}> : (tensor<32x32xf32, #layout>, f32) -> ()
  return %out : tensor<32x32xf32, #layout>
}
