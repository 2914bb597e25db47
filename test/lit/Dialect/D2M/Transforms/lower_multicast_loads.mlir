// RUN: ttmlir-opt --ttcore-register-device --d2m-lower-multicast-loads %s | FileCheck %s
// A matmul's lhs block is shared by the cores of one grid row: `mcast[0]` (the lhs map's d0) becomes the rectangle
// starting at this core's row, one row high and as wide as the grid; an operand with a parallel dim it does not
// multicast, or a 1-wide grid, keeps a unicast load; a virtual grid gives physical extents.

!tile = !ttcore.tile<32x32, bf16>
#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
#par = #ttcore.iterator_type<parallel>
#red = #ttcore.iterator_type<reduction>

// CHECK-LABEL: func.func @row_shared
// CHECK: memref.alloc() : memref<1x1x
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[ROW:.*]] = d2m.core_index(0) : index
// CHECK-NEXT: %[[H:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[W:.*]] = arith.constant 3 : index
// CHECK-NEXT: d2m.remote_load %{{.*}} %arg0[%{{.*}}, %{{.*}}] mcore[%[[ROW]], %[[Z]]] mshape[%[[H]], %[[W]]] :
// the rhs load multicasts over d1, a parallel dim of its own it does not share: unicast
// CHECK: d2m.remote_load %{{.*}} %arg1[%{{.*}}, %{{.*}}] : memref
// CHECK-NOT: mcast[
func.func @row_shared(%a: memref<2x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>,
                      %b: memref<1x3x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>,
                      %c: memref<2x3x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>) {
  d2m.generic {block_factors = [1, 1, 1], grid = #ttcore.grid<2x3>, indexing_maps = [#lhs, #rhs, #out], iterator_types = [#par, #par, #red], threads = [#d2m.thread<unified>]}
      ins(%a, %b : memref<2x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>, memref<1x3x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>)
      outs(%c : memref<2x3x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>) {
  ^unified0:
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %la = memref.alloc() : memref<1x1x!tile, #ttcore.memory_space<l1>>
    d2m.remote_load %la %a[%c0, %c0] mcast[%c0] : memref<1x1x!tile, #ttcore.memory_space<l1>>, memref<2x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
    %lb = memref.alloc() : memref<1x1x!tile, #ttcore.memory_space<l1>>
    d2m.remote_load %lb %b[%c0, %c0] mcast[%c0] : memref<1x1x!tile, #ttcore.memory_space<l1>>, memref<1x3x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
  }
  return
}

// One column: the row has a single core, so the lhs load is unicast.
// CHECK-LABEL: func.func @one_column
// CHECK-NOT: d2m.core_index
// CHECK: d2m.remote_load %{{.*}} %arg0[%{{.*}}, %{{.*}}] : memref
func.func @one_column(%a: memref<2x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>,
                      %c: memref<2x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>) {
  d2m.generic {block_factors = [1, 1, 1], grid = #ttcore.grid<2x1>, indexing_maps = [#lhs, #out], iterator_types = [#par, #par, #red], threads = [#d2m.thread<unified>]}
      ins(%a : memref<2x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>)
      outs(%c : memref<2x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>) {
  ^unified0:
    %c0 = arith.constant 0 : index
    %la = memref.alloc() : memref<1x1x!tile, #ttcore.memory_space<l1>>
    d2m.remote_load %la %a[%c0, %c0] mcast[%c0] : memref<1x1x!tile, #ttcore.memory_space<l1>>, memref<2x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
  }
  return
}

// A virtual 2x3 grid placed transposed on the chip (virtual row -> physical column): the rectangle of one
// virtual row spans 3 physical rows of one column; its start stays in virtual coordinates.
// CHECK-LABEL: func.func @virtual_grid
// CHECK: memref.alloc() : memref<1x1x
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[ROW:.*]] = d2m.core_index(0) : index
// CHECK-NEXT: %[[H:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[W:.*]] = arith.constant 1 : index
// CHECK-NEXT: d2m.remote_load {{.*}} mcore[%[[ROW]], %[[Z]]] mshape[%[[H]], %[[W]]] :
func.func @virtual_grid(%a: memref<2x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>) {
  %c = memref.alloc() {d2m.virtualGridForwardMapping = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>, d2m.virtualGridInverseMapping = affine_map<(d0, d1) -> (0, d1, d0)>} : memref<2x3x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
  d2m.generic {block_factors = [1, 1, 1], grid = #ttcore.grid<2x3, virt_to_physical_map = (d0, d1) -> (0, d1, d0), physical_to_virt_map = (d0, d1) -> (0, d1, d0)>, indexing_maps = [#lhs, #out], iterator_types = [#par, #par, #red], threads = [#d2m.thread<unified>]}
      ins(%a : memref<2x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>)
      outs(%c : memref<2x3x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>) {
  ^unified0:
    %c0 = arith.constant 0 : index
    %la = memref.alloc() : memref<1x1x!tile, #ttcore.memory_space<l1>>
    d2m.remote_load %la %a[%c0, %c0] mcast[%c0] : memref<1x1x!tile, #ttcore.memory_space<l1>>, memref<2x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
  }
  return
}
