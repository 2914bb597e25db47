// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s | FileCheck %s
// A memref lists layouts then a memory space, as MLIR reads it: a later layout replaces an earlier one,
// so a shard layout viewed through a d2m.view_layout reads as the view.

#l1 = #ttcore.memory_space<l1>
// CHECK-LABEL: func.func @shard_then_view
// CHECK-SAME: memref<2x4x!ttcore.tile<32x32, f32>, #ttcore.view<2>, #l1>
// CHECK-SAME: memref<2x4x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
func.func @shard_then_view(%a: memref<2x4x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #ttcore.view<2>, #l1>,
                           %b: memref<2x4x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) {
  return
}

// -----
#l1 = #ttcore.memory_space<l1>
// expected-error @+1 {{expected memory space to be last in memref type}}
func.func @space_first(%a: memref<2x4xf32, #l1, #ttcore.view<2>>) {
  return
}

// -----
#l1 = #ttcore.memory_space<l1>
#dram = #ttcore.memory_space<dram>
// expected-error @+1 {{multiple memory spaces specified in memref type}}
func.func @two_spaces(%a: memref<2x4xf32, #l1, #dram>) {
  return
}
