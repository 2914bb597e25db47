// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttmetal-to-flatbuffer %t.mlir -o %t.ttm
// RUN: ttrt run --result-file %t.json --artifact-dir %t.artifacts %t.ttm | FileCheck %s --check-prefix=EXEC
// RUN: ttrt perf --result-file %t.json --artifact-dir %t.perf %t.ttm | FileCheck %s --check-prefix=PERF
// RUN: FileCheck %s --input-file=%t.perf/eltwise.mlir.tmp.ttm/perf/ops_perf_results.csv --check-prefix=CSV
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline="default-input-memspace=dram default-output-memspace=dram" %s -o %t.dram.mlir
// RUN: FileCheck %s --input-file=%t.dram.mlir --check-prefix=DRAM
// RUN: ttmlir-translate --ttmetal-to-flatbuffer %t.dram.mlir -o %t.dram.ttm
// RUN: ttrt run --result-file %t.json --artifact-dir %t.artifacts %t.dram.ttm | FileCheck %s --check-prefix=EXEC-DRAM
// A 96x64 f32 multiply then exp: each tensor sharded over the 3x2 grid that divides its tiles, one launch per op,
// the first op's output buffer the second op's input; the inputs tilized and the result untilized on the device.
// Every operand in L1 is its cores' own shards, so no CB of a program moves data over the NoC and each launch has
// two kernels: one data-movement kernel (core 1, NoC 0) and the compute kernel.

// CHECK-LABEL: func.func @mul_exp(%arg0: memref<96x64xf32>, %arg1: memref<96x64xf32>) -> memref<96x64xf32>
// The host data crosses row-major: each input written into row-major shards, tilized there by a program of its own.
// CHECK: %[[A:.*]] = "ttmetal.create_buffer"() <{address = 1024 : i64}> : () -> memref<3x2x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
// CHECK: %[[A_ROWS:.*]] = "ttmetal.create_buffer"() <{address = {{[0-9]+}} : i64}> : () -> memref<3x2x32x32xf32, #ttcore.shard<128x4, 1>, #l1>
// CHECK: "ttmetal.enqueue_write_buffer"(%arg0, %[[A_ROWS]]) : (memref<96x64xf32>, memref<3x2x32x32xf32, #ttcore.shard<128x4, 1>, #l1>)
// CHECK: "ttmetal.enqueue_program"(%[[A_ROWS]], %[[A]], %[[A_ROWS]], %[[A]]) <{cb_ports = array<i64: 0, 1>, kernelConfigs = [#ttmetal.noc_config<@datamovement_kernel0, {{.*}} #ttmetal.compute_config<@compute_kernel1,
// CHECK: %[[B:.*]] = "ttmetal.create_buffer"() <{address = 5120 : i64}>
// CHECK: "ttmetal.enqueue_write_buffer"(%arg1,
// CHECK: %[[PRODUCT:.*]] = "ttmetal.create_buffer"() <{address = 9216 : i64}>
// CHECK: "ttmetal.enqueue_program"(%[[A]], %[[B]], %[[PRODUCT]], %[[A]], %[[B]], %[[PRODUCT]]) <{cb_ports = array<i64: 0, 1, 2>, kernelConfigs = [#ttmetal.noc_config<@datamovement_kernel4, #ttmetal.core_range<0x0, 3x2>, #ttmetal.kernel_args<common_rt_args = [<cb_port[0]>, <cb_port[1]>, <cb_port[2]>]  >, dm_core = 1, noc0>, #ttmetal.compute_config<@compute_kernel5, #ttmetal.core_range<0x0, 3x2>, #ttmetal.kernel_args< ct_args = [<cb_port[0]>, <cb_port[1]>, <cb_port[2]>]>, hifi4, true, false, false, [default]>]
// CHECK: "ttmetal.enqueue_program"(%[[PRODUCT]], %[[OUT:.*]], %[[PRODUCT]], %[[OUT]])
// The result crosses to the host row-major: untilized on its own cores into a buffer of row-major shards first.
// CHECK: %[[ROWS:.*]] = "ttmetal.create_buffer"() <{address = {{[0-9]+}} : i64}> : () -> memref<3x2x32x32xf32, #ttcore.shard<128x4, 1>, #l1>
// CHECK: "ttmetal.enqueue_program"(%[[OUT]], %[[ROWS]], %[[OUT]], %[[ROWS]]) <{cb_ports = array<i64: 0, 1>, kernelConfigs = [#ttmetal.noc_config<@datamovement_kernel8, {{.*}} #ttmetal.compute_config<@compute_kernel9,
// CHECK: %[[HOST:.*]] = memref.alloc() : memref<96x64xf32>
// CHECK: "ttmetal.enqueue_read_buffer"(%[[ROWS]], %[[HOST]]) : (memref<3x2x32x32xf32, #ttcore.shard<128x4, 1>, #l1>, memref<96x64xf32>)
// CHECK: "ttmetal.finish"
// CHECK: return %[[HOST]] : memref<96x64xf32>
// CHECK-LABEL: func.func private @compute_kernel1()
// CHECK: emitc.call_opaque "tilize_init"
// CHECK: emitc.call_opaque "tilize_block"
// CHECK-LABEL: func.func private @compute_kernel5()
// CHECK: emitc.call_opaque "init_sfpu"
// CHECK: emitc.call_opaque "copy_tile_init"(%[[CB0:.*]]) :
// CHECK-NEXT: emitc.call_opaque "copy_tile"(%[[CB0]], %{{.*}}, %{{.*}})
// CHECK: emitc.call_opaque "mul_binary_tile_init"() : () -> ()
// CHECK-NEXT: emitc.call_opaque "mul_binary_tile"
// CHECK: emitc.call_opaque "pack_tile"
// CHECK-LABEL: func.func private @compute_kernel7()
// CHECK: emitc.call_opaque "exp_tile_init"() : () -> ()
// CHECK-NEXT: emitc.call_opaque "exp_tile"
// CHECK-LABEL: func.func private @compute_kernel9()
// CHECK: emitc.call_opaque "untilize_init"
// CHECK: emitc.call_opaque "untilize_block"
// EXEC: program 0 ('mul_exp') loop 0: launch 0: {{[0-9,]+}} cycles on 6 core(s); launch 1: {{[0-9,]+}} cycles on 6 core(s); launch 2: {{[0-9,]+}} cycles on 6 core(s); launch 3: {{[0-9,]+}} cycles on 6 core(s); launch 4: {{[0-9,]+}} cycles on 6 core(s)
// DRAM inputs and results are still tilized and untilized by the host (no row-major DRAM buffers yet).
// EXEC-DRAM: program 0 ('mul_exp') loop 0: launch 0: {{[0-9,]+}} cycles on 6 core(s); launch 1: {{[0-9,]+}} cycles on 6 core(s)
// EXEC-DRAM-NOT: launch 2
// PERF: 5 program launches, modelled device time {{[0-9.]+}} us on wormhole_b0; report:
// CSV: OP CODE,OP TYPE,GLOBAL CALL COUNT,DEVICE ID,ATTRIBUTES,MATH FIDELITY,CORE COUNT,
// CSV-NEXT: ttmetal.enqueue_program,tt_dnn_device,0,0,,HiFi4,6,
// CSV-NEXT: ttmetal.enqueue_program,tt_dnn_device,1,0,,HiFi4,6,
// CSV-NEXT: ttmetal.enqueue_program,tt_dnn_device,2,0,,HiFi4,6,
// CSV-NEXT: ttmetal.enqueue_program,tt_dnn_device,3,0,,HiFi4,6,
// CSV-NEXT: ttmetal.enqueue_program,tt_dnn_device,4,0,,HiFi4,6,
// With inputs and outputs in DRAM, interleaved a tile per page over the 12 banks; the compute works in L1 CBs
// the reader fills from DRAM and the writer drains to it; the exp's program, whose one transfer over the NoC is
// its output's to DRAM, has one data-movement kernel, on core 0 (NoC 1).
// DRAM: %[[A:.*]] = "ttmetal.create_buffer"() <{address = 1024 : i64}> : () -> memref<1x1x3x2x!ttcore.tile<32x32, f32>, #ttcore.interleaved<8192x4096>, #dram>
// DRAM: "ttmetal.enqueue_write_buffer"(%arg0, %[[A]])
// DRAM: "ttmetal.create_buffer"() <{address = {{[0-9]+}} : i64}> : () -> memref<3x2x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
// DRAM: #ttmetal.noc_config<@datamovement_kernel0, #ttmetal.core_range<0x0, 3x2>, #ttmetal.kernel_args<common_rt_args = [<cb_port[0]>, <cb_port[1]>, <buffer_address[0]>, <buffer_address[1]>]  >, dm_core = 1, noc0>
// DRAM: #ttmetal.noc_config<@datamovement_kernel3, #ttmetal.core_range<0x0, 3x2>, #ttmetal.kernel_args<common_rt_args = [<cb_port[0]>, <cb_port[1]>, <buffer_address[1]>]  >, dm_core = 0, noc1>, #ttmetal.compute_config<@compute_kernel4,
// DRAM-LABEL: func.func private @datamovement_kernel0()
// DRAM: emitc.verbatim "AllocatorBank<AllocatorBankType::DRAM> dram_ep;"
// DRAM-NEXT: emitc.verbatim "Noc noc0(0);"
// DRAM: %[[X:.*]] = emitc.literal "my_logical_x_" : !emitc.size_t
// DRAM: emitc.verbatim "noc0.async_read(dram_ep, CoreLocalMem<uint32_t>({}), {},
// DRAM-SAME: .bank_id = static_cast<uint32_t>({}), .addr = static_cast<uint32_t>({})}, {{[{][{]}}});" args
// DRAM: emitc.verbatim "noc0.async_read_barrier();"
// DRAM-LABEL: func.func private @datamovement_kernel3()
// DRAM: emitc.verbatim "cb_arg_0.push_back({});"
// DRAM: emitc.verbatim "noc1.async_write(CoreLocalMem<uint32_t>({}), dram_ep, {},
// DRAM-SAME: .bank_id = static_cast<uint32_t>({})
func.func @mul_exp(%arg0: tensor<96x64xf32>, %arg1: tensor<96x64xf32>) -> tensor<96x64xf32> {
  %0 = "ttir.multiply"(%arg0, %arg1) : (tensor<96x64xf32>, tensor<96x64xf32>) -> tensor<96x64xf32>
  %1 = "ttir.exp"(%0) : (tensor<96x64xf32>) -> tensor<96x64xf32>
  return %1 : tensor<96x64xf32>
}
