// RUN: ttmlir-opt --ttcore-register-device --d2m-generic-regions-to-funcs %s | FileCheck %s
// Each region becomes a kernel function at the end of the module; the generic keeps only their symbols. Unassigned
// data-movement regions take the chip's two cores in NoC order (core 1 first); constants from outside are cloned.

#l1 = #ttcore.memory_space<l1>

// CHECK-LABEL: func.func @two_threads
func.func @two_threads(%out: memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) {
  %c7 = arith.constant 7 : index
  // CHECK: d2m.generic
  // CHECK-SAME: threads = [#d2m.thread<datamovement, @datamovement_kernel0, dm_core = 1>, #d2m.thread<datamovement, @datamovement_kernel1, dm_core = 0>, #d2m.thread<compute, @compute_kernel2>]
  // CHECK-NEXT: ins()
  // CHECK-NEXT: outs(%{{.*}} : memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>)
  // CHECK-NOT: ^
  // CHECK: return
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>, #d2m.thread<datamovement>, #d2m.thread<compute>]}
      ins() outs(%out : memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) {
  ^datamovement0:
    %i = arith.addi %c7, %c7 : index
  }, {
  ^datamovement1:
  }, {
  ^compute0:
  }
  return
}

// CHECK: func.func private @datamovement_kernel0() attributes {d2m.thread = #d2m.thread<datamovement, dm_core = 1>, tt.function_type = "kernel"} {
// CHECK-NEXT: %[[C:.*]] = arith.constant 7 : index
// CHECK-NEXT: arith.addi %[[C]], %[[C]] : index
// CHECK-NEXT: return
// CHECK: func.func private @datamovement_kernel1() attributes {d2m.thread = #d2m.thread<datamovement, dm_core = 0>, tt.function_type = "kernel"}
// CHECK: func.func private @compute_kernel2() attributes {d2m.thread = #d2m.thread<compute>, tt.function_type = "kernel"}
