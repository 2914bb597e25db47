// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline="disable-tolayout-folding=1" -o %t.mlir %s
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=RUNS
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline="disable-tolayout-folding=1 use-tensor-accessor-dma=1" -o %t.ta.mlir %s
// RUN: FileCheck %s --input-file=%t.ta.mlir --check-prefix=TA
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ta.ttm %t.ta.mlir
// RUN: ttrt run %t.ta.ttm | FileCheck %s --check-prefix=RUNS
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline="disable-tolayout-folding=1 force-compile-time-args=1" %s | FileCheck %s --check-prefix=FORCE
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline -o %t.fold.mlir %s
// RUN: FileCheck %s --input-file=%t.fold.mlir --check-prefix=FOLD
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.fold.ttm %t.fold.mlir
// RUN: ttrt run %t.fold.ttm
// A 1x16 grid of shards does not fit an 8x8 worker grid: it is a virtual grid laid onto 4x4 cores row by row
// (its create_buffer carries the maps); tensors regridded back to back are copied program by program (the source
// read over the NoC the one transfer, each program has one data-movement kernel, gathering the source's tiles and
// waiting for the output shard), or (to_layout folding, the default) moved once. The host data is tilized on its one core first, the result
// untilized on its 8 last.

#layout = #ttcore.metal_layout<logical_shape = 64x512, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
// CHECK-DAG: #[[FWD:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> ((d0 * 16 + d1) floordiv 4, (d0 * 16 + d1) mod 4, d2, d3)>
// CHECK-DAG: #[[INV:map[0-9]*]] = affine_map<(d0, d1) -> (0, (d0 * 4 + d1) floordiv 16, (d0 * 4 + d1) mod 16)>
// CHECK-LABEL: func.func @regrid
// CHECK: "ttmetal.create_buffer"() <{address = {{[0-9]+}} : i64, virtualGridForwardMapping = #[[FWD]], virtualGridInverseMapping = #[[INV]]}> : () -> memref<1x16x2x1x!ttcore.tile<32x32, f32>
// CHECK: "ttmetal.enqueue_program"{{.*}}#ttmetal.core_range<0x0, 4x4>, #ttmetal.kernel_args<common_rt_args = [<cb_port[0]>, <buffer_address[0]>, <cb_port[1]>]  >, dm_core = 1, noc0>, #ttmetal.compute_config
// CHECK: "ttmetal.enqueue_program"{{.*}}#ttmetal.core_range<0x0, 2x4>
// RUNS: launch 0: {{[0-9,]+}} cycles on 1 core(s); launch 1: {{[0-9,]+}} cycles on 16 core(s); launch 2: {{[0-9,]+}} cycles on 8 core(s)
// TA: "ttmetal.enqueue_program"{{.*}}#ttmetal.core_range<0x0, 4x4>{{.*}}ct_args = [<tensor_accessor_args[0]>]
// TA: emitc.verbatim "constexpr auto tensor_accessor_args_{{[0-9]+}} = TensorAccessorArgs<0, 0>();"
// FORCE: #ttmetal.kernel_args< ct_args = [<cb_port[0]>, <buffer_address[0]>, <cb_port[1]>]>
// FORCE: emitc.literal "get_compile_time_arg_val(1)"
// FOLD-LABEL: func.func @regrid
// FOLD-NOT: ttmetal.create_buffer
// FOLD-NOT: ttmetal.enqueue_program
// FOLD: "memref.copy"(%arg0, %{{.*}}) : (memref<64x512xf32>, memref<64x512xf32>) -> ()
func.func @regrid(%arg0: tensor<64x512xf32>) -> tensor<64x512xf32> {
  %0 = ttir.empty() : tensor<1x1x2x16x!ttcore.tile<32x32, f32>, #layout>
  %1 = ttir.to_layout %arg0, %0 : tensor<64x512xf32> into tensor<1x1x2x16x!ttcore.tile<32x32, f32>, #layout> -> tensor<1x1x2x16x!ttcore.tile<32x32, f32>, #layout>
  %2 = ttir.empty() : tensor<1x16x2x1x!ttcore.tile<32x32, f32>, #layout>
  %3 = ttir.to_layout %1, %2 : tensor<1x1x2x16x!ttcore.tile<32x32, f32>, #layout> into tensor<1x16x2x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<1x16x2x1x!ttcore.tile<32x32, f32>, #layout>
  %4 = ttir.empty() : tensor<2x4x1x4x!ttcore.tile<32x32, f32>, #layout>
  %5 = ttir.to_layout %3, %4 : tensor<1x16x2x1x!ttcore.tile<32x32, f32>, #layout> into tensor<2x4x1x4x!ttcore.tile<32x32, f32>, #layout> -> tensor<2x4x1x4x!ttcore.tile<32x32, f32>, #layout>
  %6 = ttir.empty() : tensor<64x512xf32>
  %7 = ttir.to_layout %5, %6 : tensor<2x4x1x4x!ttcore.tile<32x32, f32>, #layout> into tensor<64x512xf32> -> tensor<64x512xf32>
  return %7 : tensor<64x512xf32>
}
