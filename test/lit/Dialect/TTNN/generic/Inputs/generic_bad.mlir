// Input of generic.mlir's BAD run: a kernel binds the address of tensor 2 of an op with two.
#dram = #ttnn.buffer_type<dram>
#t = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
func.func @copy(%a: tensor<32x32xf32, #t>, %b: tensor<32x32xf32, #t>) {
  // kernels: one reader
  // (the second tensor is written in place)
  // the op:
  "ttnn.generic"(%a, %b) <{program = #ttnn.program<kernels = [#ttnn.read_kernel<symbol_ref = @reader, core_ranges = <[#ttnn.core_range<(0,0), (0,0)>]>, ct_args = [], common_rt_args = [#ttnn.kernel_arg_address_of_tensor<2>], rt_args = []>], cbs = [], semaphores = []>, operandSegmentSizes = array<i32: 2, 0>}> : (tensor<32x32xf32, #t>, tensor<32x32xf32, #t>) -> ()
  return
}
