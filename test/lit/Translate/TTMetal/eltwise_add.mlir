// RUN: ttmlir-translate --ttmetal-to-flatbuffer %s -o %t.ttm
// RUN: ttrt read %t.ttm --section kernels | FileCheck %s
// RUN: ttrt run --result-file %t.json --artifact-dir %t.artifacts %t.ttm | FileCheck %s --check-prefix=EXEC
// RUN: not ttrt run --result-file %t.json --artifact-dir %t.artifacts --memory %t.ttm 2>&1 | FileCheck %s --check-prefix=REFUSED
// A 64x128 f32 add on a 1x2 grid: inputs written into L1 shards (2x2 tiles per core), three kernels per
// core (the data-movement ones only hand the L1-resident shards to the CBs), the result read back.

// EXEC: program 0 ('add') loop 0: launch 0: {{[0-9,]+}} cycles on 2 core(s)
// REFUSED: --memory is not supported for .ttm binaries yet

// CHECK: "symbol": "reader"
// CHECK: "symbol": "writer"
// CHECK: "symbol": "compute",
// CHECK-NEXT: "thread": "compute",
// CHECK: "size": [1, 2]
// CHECK: namespace NAMESPACE {\nvoid kernel_main() {
// CHECK-SAME: for (size_t i1 = v3; i1 < v4; i1 += v5) {\n    tile_regs_acquire();\n    add_tiles(get_compile_time_arg_val(0), get_compile_time_arg_val(1), i1, i1, v2);
#l1 = #ttcore.memory_space<l1>
module {
  func.func @add(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>) -> memref<64x128xf32> {
    %a = "ttmetal.create_buffer"() <{address = 103424 : i64}> : () -> memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>
    %b = "ttmetal.create_buffer"() <{address = 119808 : i64}> : () -> memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>
    %c = "ttmetal.create_buffer"() <{address = 136192 : i64}> : () -> memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>
    "ttmetal.enqueue_write_buffer"(%arg0, %a) : (memref<64x128xf32>, memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>) -> ()
    "ttmetal.enqueue_write_buffer"(%arg1, %b) : (memref<64x128xf32>, memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>) -> ()
    "ttmetal.enqueue_program"(%a, %b, %c, %a, %b, %c) <{cb_ports = array<i64: 0, 1, 2>, kernelConfigs = [#ttmetal.noc_config<@reader, #ttmetal.core_range<0x0, 1x2>, #ttmetal.kernel_args< ct_args = [<cb_port[0]>, <cb_port[1]>]>, dm_core = 1, noc0>, #ttmetal.noc_config<@writer, #ttmetal.core_range<0x0, 1x2>, #ttmetal.kernel_args< ct_args = [<cb_port[2]>]>, dm_core = 0, noc1>, #ttmetal.compute_config<@compute, #ttmetal.core_range<0x0, 1x2>, #ttmetal.kernel_args< ct_args = [<cb_port[0]>, <cb_port[1]>, <cb_port[2]>]>, hifi4, true, false, false, [default]>], operandSegmentSizes = array<i32: 3, 3>}> : (memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>, memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>, memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>, memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>, memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>, memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>) -> ()
    %out = memref.alloc() : memref<64x128xf32>
    "ttmetal.enqueue_read_buffer"(%c, %out) : (memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>, memref<64x128xf32>) -> ()
    "ttmetal.deallocate_buffer"(%a) : (memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>) -> ()
    "ttmetal.deallocate_buffer"(%b) : (memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>) -> ()
    "ttmetal.deallocate_buffer"(%c) : (memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>) -> ()
    "ttmetal.finish"() : () -> ()
    return %out : memref<64x128xf32>
  }
  func.func private @reader() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
    %in0 = emitc.literal "get_compile_time_arg_val(0)" : i32
    %in1 = emitc.literal "get_compile_time_arg_val(1)" : i32
    %shard = arith.constant 4 : i32
    emitc.call_opaque "cb_reserve_back"(%in0, %shard) : (i32, i32) -> ()
    emitc.call_opaque "cb_push_back"(%in0, %shard) : (i32, i32) -> ()
    emitc.call_opaque "cb_reserve_back"(%in1, %shard) : (i32, i32) -> ()
    emitc.call_opaque "cb_push_back"(%in1, %shard) : (i32, i32) -> ()
    return
  }
  func.func private @writer() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
    %out = emitc.literal "get_compile_time_arg_val(0)" : i32
    %shard = arith.constant 4 : i32
    emitc.call_opaque "cb_wait_front"(%out, %shard) : (i32, i32) -> ()
    return
  }
  func.func private @compute() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
    emitc.include "api/compute/eltwise_binary.h"
    %in0 = emitc.literal "get_compile_time_arg_val(0)" : i32
    %in1 = emitc.literal "get_compile_time_arg_val(1)" : i32
    %out = emitc.literal "get_compile_time_arg_val(2)" : i32
    %shard = arith.constant 4 : i32
    %dst = arith.constant 0 : i32
    %lb = arith.constant 0 : index
    %ub = arith.constant 4 : index
    %step = arith.constant 1 : index
    emitc.call_opaque "binary_op_init_common"(%in0, %in1, %out) : (i32, i32, i32) -> ()
    emitc.call_opaque "add_tiles_init"(%in0, %in1) : (i32, i32) -> ()
    emitc.call_opaque "cb_wait_front"(%in0, %shard) : (i32, i32) -> ()
    emitc.call_opaque "cb_wait_front"(%in1, %shard) : (i32, i32) -> ()
    emitc.call_opaque "cb_reserve_back"(%out, %shard) : (i32, i32) -> ()
    scf.for %i = %lb to %ub step %step {
      emitc.call_opaque "tile_regs_acquire"() : () -> ()
      emitc.call_opaque "add_tiles"(%in0, %in1, %i, %i, %dst) : (i32, i32, index, index, i32) -> ()
      emitc.call_opaque "tile_regs_commit"() : () -> ()
      emitc.call_opaque "tile_regs_wait"() : () -> ()
      emitc.call_opaque "pack_tile"(%dst, %out, %i) : (i32, i32, index) -> ()
      emitc.call_opaque "tile_regs_release"() : () -> ()
    }
    emitc.call_opaque "cb_push_back"(%out, %shard) : (i32, i32) -> ()
    emitc.call_opaque "cb_pop_front"(%in0, %shard) : (i32, i32) -> ()
    emitc.call_opaque "cb_pop_front"(%in1, %shard) : (i32, i32) -> ()
    return
  }
}
