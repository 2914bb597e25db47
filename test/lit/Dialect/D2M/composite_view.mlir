// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s | FileCheck %s
// A composite view lays its inputs side by side along `dim`; it reads and prints in upstream's generic form and
// refuses inputs that disagree with it.

!in = memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #ttcore.memory_space<l1>>
!out = memref<1x2x1x1x!ttcore.tile<32x32, f32>, #ttcore.view<4>, #ttcore.memory_space<l1>>

// CHECK-LABEL: func.func @pair
func.func @pair(%a: !in, %b: !in) -> !out {
  // CHECK: "d2m.composite_view"(%{{.*}}, %{{.*}}) <{dim = 1 : si32}> : (memref<1x1x1x1x{{.*}}>, memref<1x1x1x1x{{.*}}>) -> memref<1x2x1x1x{{.*}}>
  %0 = "d2m.composite_view"(%a, %b) <{dim = 1 : si32}> : (!in, !in) -> !out
  return %0 : !out
}

// -----

!in = memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #ttcore.memory_space<l1>>
!out = memref<1x2x1x1x!ttcore.tile<32x32, f32>, #ttcore.view<4>, #ttcore.memory_space<l1>>

func.func @bad_dim(%a: !in, %b: !in) -> !out {
  // expected-error @+1 {{'d2m.composite_view' op dim out of range.}}
  %0 = "d2m.composite_view"(%a, %b) <{dim = 2 : si32}> : (!in, !in) -> !out
  return %0 : !out
}

// -----

!in = memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #ttcore.memory_space<l1>>
!out = memref<2x2x1x1x!ttcore.tile<32x32, f32>, #ttcore.view<4>, #ttcore.memory_space<l1>>

func.func @bad_other_dim(%a: !in, %b: !in) -> !out {
  // expected-error @+1 {{'d2m.composite_view' op incompatible non-composite dim.}}
  %0 = "d2m.composite_view"(%a, %b) <{dim = 1 : si32}> : (!in, !in) -> !out
  return %0 : !out
}

// -----

!in = memref<1x1x32x32xf32, #ttcore.shard<128x4, 1>, #ttcore.memory_space<l1>>
!out = memref<1x1x32x64xf32, #ttcore.view<4>, #ttcore.memory_space<l1>>

func.func @untiled_needs_sizes(%a: !in, %b: !in) -> !out {
  // expected-error @+1 {{'d2m.composite_view' op missing logicalSizes attr.}}
  %0 = "d2m.composite_view"(%a, %b) <{dim = 1 : si32}> : (!in, !in) -> !out
  return %0 : !out
}
