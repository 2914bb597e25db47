// RUN: ttmlir-opt --ttcore-register-device --d2m-to-ttkernel-pipeline --d2m-to-ttmetal-pipeline %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device "--d2m-to-ttkernel-pipeline=force-compile-time-args=true" "--d2m-to-ttmetal-pipeline=set-math-fidelity=LoFi" %s | FileCheck %s --check-prefix=CT
// The back-end stages as pipelines: kernels to TTKernel then EmitC, the host program to TTMetal (the compute
// config unpacking to dst in fp32 for a 32-bit typecast kernel, found in its EmitC calls).

#l1 = #ttcore.memory_space<l1>
#dst = #ttcore.memory_space<dst>
!buf = memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
!obuf = memref<1x1x1x1x!ttcore.tile<32x32, bf16>, #ttcore.shard<2048x2048, 1>, #l1>
!cbin = memref<1x!ttcore.tile<32x32, f32>, #ttcore.cb_layout<4096x4096, 1>, #l1>
!cbout = memref<1x!ttcore.tile<32x32, bf16>, #ttcore.cb_layout<2048x2048, 1>, #l1>

// CHECK-LABEL: func.func @cast
// CHECK: "ttmetal.enqueue_program"
// CHECK-SAME: #ttmetal.compute_config<@cast_kernel, #ttmetal.core_range<0x0, 1x1>, #ttmetal.kernel_args<common_rt_args = [<cb_port[0]>, <cb_port[1]>]  >, hifi4, true, false, false, [fp32]>
// CHECK: func.func private @cast_kernel
// CHECK-NOT: ttkernel.{{[a-z_.]+}}(
// CHECK: emitc.call_opaque "typecast_tile"
// CT: #ttmetal.kernel_args< ct_args = [<cb_port[0]>, <cb_port[1]>]>, lofi, true, false, false, [fp32]>
// CT: emitc.literal "get_compile_time_arg_val(0)"
func.func @cast(%in: !buf) -> !obuf {
  %out = memref.alloc() {address = 8192 : i64, alignment = 16 : i64} : !obuf
  %cb0 = memref.alloc() {address = 16384 : i64, alignment = 16 : i64} : !cbin
  %cb1 = memref.alloc() {address = 24576 : i64, alignment = 16 : i64} : !cbout
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute, @cast_kernel>]}
      ins(%in : !buf)
      outs(%out : !obuf)
      additionalArgs(%cb0, %cb1 : !cbin, !cbout)
  return %out : !obuf
}

func.func private @cast_kernel() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(2) : !d2m.cb<!cbin>
  %cb1 = d2m.get_cb(3) : !d2m.cb<!cbout>
  %c0 = arith.constant 0 : index
  %in = d2m.wait %cb0 : !d2m.cb<!cbin> -> !cbin
  %out = d2m.reserve %cb1 : !d2m.cb<!cbout> -> !cbout
  %dst = d2m.acquire_dst() : memref<8x!ttcore.tile<32x32, f32>, #dst>
  %t = memref.load %in[%c0] : !cbin
  memref.store %t, %dst[%c0] : memref<8x!ttcore.tile<32x32, f32>, #dst>
  %d = memref.load %dst[%c0] : memref<8x!ttcore.tile<32x32, f32>, #dst>
  %y = "d2m.tile_typecast"(%d) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, bf16>
  %yd = "d2m.dst_reinterpret_cast"(%y) : (!ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, f32>
  memref.store %yd, %dst[%c0] : memref<8x!ttcore.tile<32x32, f32>, #dst>
  %z = memref.load %dst[%c0] : memref<8x!ttcore.tile<32x32, f32>, #dst>
  %zb = "d2m.dst_reinterpret_cast"(%z) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, bf16>
  memref.store %zb, %out[%c0] : !cbout
  d2m.push %cb1 : !d2m.cb<!cbout>
  d2m.pop %cb0 : !d2m.cb<!cbin>
  return
}
