// RUN: ttmlir-opt --split-input-file --ttcore-register-device --ttir-to-d2m --d2m-grid-selection %s | FileCheck %s
// A tall (or wide) matrix whose tiles the 8x8 device divides poorly is computed on a column (row) of shards, one
// per core, laid row by row onto a rectangle of cores: the d2m.empty carries the virtual grid maps and the generic's
// grid the maps of the cores it runs on. A matrix the device divides well keeps its block grid, and so does a
// column too short to use over a quarter of the device.

// CHECK-LABEL: func.func @tall
// 64 tiles high: a 64x1 grid on the 8x8 cores.
// CHECK: d2m.empty() {virtualGridForwardMapping = #{{.*}}, virtualGridInverseMapping = #{{.*}}} : tensor<64x1x1x1x!ttcore.tile<32x32, f32>
// CHECK: d2m.generic {{.*}}grid = #ttcore.grid<64x1, virt_to_physical_map = (d0, d1) -> (0, ((d1 + d0) floordiv 8) mod 8, (d1 + d0) mod 8), physical_to_virt_map = (d0, d1) -> (0, (d1 + d0 * 8) mod 64, 0)>
func.func @tall(%a: tensor<2048x32xf32>) -> tensor<2048x32xf32> {
  %0 = "ttir.exp"(%a) : (tensor<2048x32xf32>) -> tensor<2048x32xf32>
  return %0 : tensor<2048x32xf32>
}

// -----

// CHECK-LABEL: func.func @wide
// 40 tiles wide: a 1x40 grid on 5x8 cores.
// CHECK: d2m.empty() {virtualGridForwardMapping = #{{.*}}} : tensor<1x40x1x1x!ttcore.tile<32x32, f32>
// CHECK: d2m.generic {{.*}}grid = #ttcore.grid<1x40, virt_to_physical_map = (d0, d1) -> (0, ((d1 + d0 * 40) floordiv 8) mod 5, (d1 + d0 * 40) mod 8), physical_to_virt_map = (d0, d1) -> (0, 0, (d1 + d0 * 8) mod 40)>
func.func @wide(%a: tensor<32x1280xf32>) -> tensor<32x1280xf32> {
  %0 = "ttir.exp"(%a) : (tensor<32x1280xf32>) -> tensor<32x1280xf32>
  return %0 : tensor<32x1280xf32>
}

// -----

// CHECK-LABEL: func.func @short_column
// 12 tiles high, past the device's 8 rows: padded at its end to 16 (two per core of the grid's rows); a 16x1 grid
// would use 16 of 64 cores, no more than a quarter, so the block grid 8x1 it is.
// CHECK-NOT: virtualGridForwardMapping
// CHECK: d2m.empty() : tensor<8x1x2x1x!ttcore.tile<32x32, f32>, #layout>
// CHECK: d2m.generic {{.*}}grid = #ttcore.grid<8x1>
func.func @short_column(%a: tensor<384x32xf32>) -> tensor<384x32xf32> {
  %0 = "ttir.exp"(%a) : (tensor<384x32xf32>) -> tensor<384x32xf32>
  return %0 : tensor<384x32xf32>
}

// -----

// CHECK-LABEL: func.func @square
// CHECK-NOT: virtualGridForwardMapping
// CHECK: d2m.generic {{.*}}grid = #ttcore.grid<8x8>
func.func @square(%a: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = "ttir.exp"(%a) : (tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
