// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttmetal-to-flatbuffer %t.mlir -o %t.ttm
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline="default-output-memspace=dram" %s -o %t.out.mlir
// RUN: FileCheck %s --input-file=%t.out.mlir --check-prefix=OUT
// RUN: ttmlir-translate --ttmetal-to-flatbuffer %t.out.mlir -o %t.out.ttm
// RUN: ttrt run %t.out.ttm | FileCheck %s --check-prefix=TTRT
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline="default-input-memspace=dram default-output-memspace=dram" %s | FileCheck %s --check-prefix=DRAM
// A program's data-movement kernels: a reader (core 1, NoC 0) and a writer (core 0, NoC 1) when two or more of its
// CBs move data over the NoC; else one kernel doing both, the next kernel its compute kernel, as upstream's
// d2m-schedule-dma leaves such a program one data-movement thread: on core 0 (NoC 1) when what it moves is a DRAM
// output, else on core 1 (NoC 0). Its arguments are the reader's, then the writer's it lacks.

// In L1 every operand is its cores' own shards: one data-movement kernel hands the inputs to the compute kernel
// and waits for the output (kernels 0 to 3 tilize the inputs).
// CHECK-LABEL: func.func @add
// CHECK: "ttmetal.enqueue_program"{{.*}}cb_ports = array<i64: 0, 1, 2>, kernelConfigs = [#ttmetal.noc_config<@datamovement_kernel4, #ttmetal.core_range<0x0, 2x4>, #ttmetal.kernel_args<common_rt_args = [<cb_port[0]>, <cb_port[1]>, <cb_port[2]>]  >, dm_core = 1, noc0>, #ttmetal.compute_config<@compute_kernel5,
// A reduction streams its operand over the NoC; its output in L1 is the one kernel's to wait for.
// CHECK-LABEL: func.func @row_sum
// CHECK: "ttmetal.enqueue_program"{{.*}}kernelConfigs = [#ttmetal.noc_config<@datamovement_kernel{{[0-9]+}}, #ttmetal.core_range<0x0, 2x1>, #ttmetal.kernel_args<common_rt_args = [<cb_port[0]>, <cb_port[1]>, <cb_port[2]>, <buffer_address[0]>]  >, dm_core = 1, noc0>, #ttmetal.compute_config<
// CHECK-LABEL: func.func private @datamovement_kernel4()
// CHECK: emitc.verbatim "cb_arg_0.reserve_back({});"
// CHECK: emitc.verbatim "cb_arg_0.push_back({});"
// CHECK: emitc.verbatim "cb_arg_1.reserve_back({});"
// CHECK: emitc.verbatim "cb_arg_1.push_back({});"
// CHECK: emitc.verbatim "cb_arg_2.wait_front({});"
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @compute_kernel5()
// TTRT: program 0 ('add') loop 0: launch 0: {{.*}}
// TTRT: program 1 ('exp') loop 0: launch 0: {{.*}}
// TTRT: program 2 ('row_sum') loop 0: launch 0: {{.*}}

// The exp's only transfer is its output's, to DRAM; so one kernel on core 0, NoC 1, the output's address after
// its CB.
// OUT-LABEL: func.func @exp
// OUT: "ttmetal.enqueue_program"{{.*}}kernelConfigs = [#ttmetal.noc_config<@datamovement_kernel8, #ttmetal.core_range<0x0, 2x4>, #ttmetal.kernel_args<common_rt_args = [<cb_port[0]>, <cb_port[1]>, <buffer_address[1]>]  >, dm_core = 0, noc1>, #ttmetal.compute_config<@compute_kernel9,
// The reduction streams its operand in and writes its output to DRAM, two CBs: a reader and a writer.
// OUT-LABEL: func.func @row_sum
// OUT: kernelConfigs = [#ttmetal.noc_config<@datamovement_kernel12, {{.*}}dm_core = 1, noc0>, #ttmetal.noc_config<@datamovement_kernel13, {{.*}}dm_core = 0, noc1>, #ttmetal.compute_config<@compute_kernel14,
// OUT-LABEL: func.func private @datamovement_kernel8()
// OUT: emitc.verbatim "Noc noc1(1);"
// OUT: emitc.verbatim "cb_arg_0.push_back({});"
// OUT: emitc.verbatim "cb_arg_1.wait_front({});"
// OUT: emitc.verbatim "noc1.async_write(
// OUT: emitc.verbatim "noc1.async_write_barrier();"

// Both inputs read from DRAM and the output written there: a reader and a writer.
// DRAM-LABEL: func.func @add
// DRAM: kernelConfigs = [#ttmetal.noc_config<@datamovement_kernel0, {{.*}}common_rt_args = [<cb_port[0]>, <cb_port[1]>, <buffer_address[0]>, <buffer_address[1]>]  >, dm_core = 1, noc0>, #ttmetal.noc_config<@datamovement_kernel1, {{.*}}common_rt_args = [<cb_port[2]>, <buffer_address[2]>]  >, dm_core = 0, noc1>, #ttmetal.compute_config<@compute_kernel2,
func.func @add(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = "ttir.add"(%a, %b) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
func.func @exp(%a: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = "ttir.exp"(%a) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
func.func @row_sum(%a: tensor<64x128xf32>) -> tensor<64x1xf32> {
  %0 = "ttir.sum"(%a) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<64x128xf32>) -> tensor<64x1xf32>
  return %0 : tensor<64x1xf32>
}
