// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection --convert-d2m-to-ttkernel %s | FileCheck %s --check-prefix=KERNEL
// A batched matmul: its batch folded into tile rows (3 matrices of 40x64, two tile rows each), A and B in DRAM, the
// output on the grid of its tiles; the region's linalg.generic reads B in the rows of each output row's batch
// (r floordiv Mt), or transposed. Its program streams one tile of A and of B a step into 1x1-tile block matmuls.

// CHECK-DAG: #[[A:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[B:map[0-9]*]] = affine_map<(d0, d1, d2) -> ((d0 floordiv 2) * 2 + d2, d1)>
// CHECK-DAG: #[[BT:map[0-9]*]] = affine_map<(d0, d1, d2) -> ((d0 floordiv 2) * 3 + d1, d2)>
// CHECK-LABEL: func.func @bmm
// CHECK: d2m.to_layout %arg0, %{{.*}} : tensor<3x40x64xf32> into tensor<6x1x1x2x!ttcore.tile<32x32, f32>, #{{.*}}>
// CHECK: d2m.to_layout %arg1, %{{.*}} : tensor<3x64x50xf32> into tensor<1x2x6x1x!ttcore.tile<32x32, f32>, #{{.*}}>
// CHECK: d2m.generic {block_factors = [], grid = #ttcore.grid<6x2>, indexing_maps = [], iterator_types = []
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: d2m.tile_matmul
// KERNEL-LABEL: func.func @bmm
// KERNEL: threads = [#d2m.thread<datamovement, @datamovement_kernel{{[0-9]+}}, dm_core = 1>, #d2m.thread<datamovement, @datamovement_kernel{{[0-9]+}}, dm_core = 0>, #d2m.thread<compute, @compute_kernel{{[0-9]+}}>]
func.func @bmm(%a: tensor<3x40x64xf32>, %b: tensor<3x64x50xf32>) -> tensor<3x40x50xf32> {
  %0 = "ttir.matmul"(%a, %b) : (tensor<3x40x64xf32>, tensor<3x64x50xf32>) -> tensor<3x40x50xf32>
  return %0 : tensor<3x40x50xf32>
}

// CHECK-LABEL: func.func @bmm_transposed
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[BT]], #{{.*}}]
func.func @bmm_transposed(%a: tensor<3x40x64xf32>, %b: tensor<3x70x64xf32>) -> tensor<3x40x70xf32> {
  %0 = "ttir.matmul"(%a, %b) <{transpose_b = true}> : (tensor<3x40x64xf32>, tensor<3x70x64xf32>) -> tensor<3x40x70xf32>
  return %0 : tensor<3x40x70xf32>
}

// KERNEL: func.func private @compute_kernel{{[0-9]+}}()
// KERNEL: ttkernel.mm_block_init
// KERNEL: scf.for
// KERNEL: ttkernel.cb_wait_front
// KERNEL: ttkernel.experimental.matmul_block

// A permute swapping B's matrix dims is read transposed by the matmul (no batched transpose on the device).
// CHECK-LABEL: func.func @bmm_permuted_b
// CHECK-NOT: ttir.permute
// CHECK: d2m.to_layout %arg1, %{{.*}} : tensor<2x3x70x64xbf16> into
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[BT]], #{{.*}}]
// CHECK: d2m.tile_matmul
func.func @bmm_permuted_b(%q: tensor<2x3x40x64xbf16>, %k: tensor<2x3x70x64xbf16>) -> tensor<2x3x40x70xbf16> {
  %kt = "ttir.permute"(%k) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<2x3x70x64xbf16>) -> tensor<2x3x64x70xbf16>
  %0 = "ttir.dot_general"(%q, %kt) <{batch_dims_lhs = array<i64: 0, 1>, batch_dims_rhs = array<i64: 0, 1>, contract_dims_lhs = array<i64: 3>, contract_dims_rhs = array<i64: 2>}> : (tensor<2x3x40x64xbf16>, tensor<2x3x64x70xbf16>) -> tensor<2x3x40x70xbf16>
  return %0 : tensor<2x3x40x70xbf16>
}
