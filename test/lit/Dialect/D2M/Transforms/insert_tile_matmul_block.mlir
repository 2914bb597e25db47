// RUN: ttmlir-opt --ttcore-register-device --d2m-linalg-to-affine --d2m-insert-dst-register-access-unscheduled="disable-l1-acc=true" --d2m-insert-tile-matmul-block --canonicalize %s | FileCheck %s
// RUN: not ttmlir-opt --ttcore-register-device --d2m-linalg-to-affine --d2m-insert-dst-register-access-unscheduled="disable-l1-acc=true" --d2m-insert-tile-matmul-block="use-tile-matmul=true" --split-input-file %S/insert_tile_matmul_block_negative.mlir 2>%t.err | FileCheck %S/insert_tile_matmul_block_negative.mlir
// RUN: FileCheck %S/insert_tile_matmul_block_negative.mlir --check-prefix=ERR --input-file=%t.err
// After DST access, a tile_matmul nest becomes one tile_matmul_block on the L1 blocks (the C block as the DST->L1
// copy after the nest writes it); a B block indexed (n, k) is read transposed. With use-tile-matmul the tile loops
// stay, and a transposed B is refused (insert_tile_matmul_block_negative.mlir).

#l1 = #ttcore.memory_space<l1>
!t = !ttcore.tile<32x32, bf16>

// CHECK-LABEL: func.func @matmul
// CHECK: %dst = d2m.acquire_dst() : memref<8x!ttcore.tile<32x32, bf16>, #dst>
// CHECK-NOT: "d2m.tile_matmul"(
// CHECK: "d2m.tile_matmul_block"(%[[A:.*]], %[[B:.*]], %[[C:.*]]) <{transpose_b = false}> : (memref<2x4x!ttcore.tile<32x32, bf16>, #l1>, memref<4x3x!ttcore.tile<32x32, bf16>, #l1>, memref<2x3x!ttcore.tile<32x32, bf16>, #l1>) -> ()
// CHECK: affine.for %[[I:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 3 {
// CHECK: %[[V:.*]] = affine.load %dst[%[[I]] * 3 + %[[J]]]
// CHECK: affine.store %[[V]], %[[C]][%[[I]], %[[J]]]
func.func @matmul(%a: memref<1x1x2x4x!t, #ttcore.shard<8192x2048, 1>, #l1>, %b: memref<1x1x4x3x!t, #ttcore.shard<6144x2048, 1>, #l1>,
                  %c: memref<1x1x2x3x!t, #ttcore.shard<6144x2048, 1>, #l1>) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute>]}
      ins(%a, %b : memref<1x1x2x4x!t, #ttcore.shard<8192x2048, 1>, #l1>, memref<1x1x4x3x!t, #ttcore.shard<6144x2048, 1>, #l1>)
      outs(%c : memref<1x1x2x3x!t, #ttcore.shard<6144x2048, 1>, #l1>) {
  ^compute0:
    %cb0 = d2m.get_cb(0) : !d2m.cb<memref<2x4x!t, #l1>>
    %cb1 = d2m.get_cb(1) : !d2m.cb<memref<4x3x!t, #l1>>
    %cb2 = d2m.get_cb(2) : !d2m.cb<memref<2x3x!t, #l1>>
    %x = d2m.wait %cb0 : !d2m.cb<memref<2x4x!t, #l1>> -> memref<2x4x!t, #l1>
    %y = d2m.wait %cb1 : !d2m.cb<memref<4x3x!t, #l1>> -> memref<4x3x!t, #l1>
    %z = d2m.reserve %cb2 : !d2m.cb<memref<2x3x!t, #l1>> -> memref<2x3x!t, #l1>
    linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x, %y : memref<2x4x!t, #l1>, memref<4x3x!t, #l1>) outs(%z : memref<2x3x!t, #l1>) {
    ^bb0(%p: !t, %q: !t, %o: !t):
      %0 = "d2m.tile_matmul"(%p, %q, %o) : (!t, !t, !t) -> !t
      linalg.yield %0 : !t
    }
  }
  return
}

// CHECK-LABEL: func.func @matmul_bt
// CHECK: "d2m.tile_matmul_block"(%{{.*}}, %{{.*}}, %{{.*}}) <{transpose_b = true}> : (memref<2x4x!ttcore.tile<32x32, bf16>, #l1>, memref<3x4x!ttcore.tile<32x32, bf16>, #l1>, memref<2x3x!ttcore.tile<32x32, bf16>, #l1>) -> ()
func.func @matmul_bt(%a: memref<1x1x2x4x!t, #ttcore.shard<8192x2048, 1>, #l1>, %b: memref<1x1x3x4x!t, #ttcore.shard<8192x2048, 1>, #l1>,
                     %c: memref<1x1x2x3x!t, #ttcore.shard<6144x2048, 1>, #l1>) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute>]}
      ins(%a, %b : memref<1x1x2x4x!t, #ttcore.shard<8192x2048, 1>, #l1>, memref<1x1x3x4x!t, #ttcore.shard<8192x2048, 1>, #l1>)
      outs(%c : memref<1x1x2x3x!t, #ttcore.shard<6144x2048, 1>, #l1>) {
  ^compute0:
    %cb0 = d2m.get_cb(0) : !d2m.cb<memref<2x4x!t, #l1>>
    %cb1 = d2m.get_cb(1) : !d2m.cb<memref<3x4x!t, #l1>>
    %cb2 = d2m.get_cb(2) : !d2m.cb<memref<2x3x!t, #l1>>
    %x = d2m.wait %cb0 : !d2m.cb<memref<2x4x!t, #l1>> -> memref<2x4x!t, #l1>
    %y = d2m.wait %cb1 : !d2m.cb<memref<3x4x!t, #l1>> -> memref<3x4x!t, #l1>
    %z = d2m.reserve %cb2 : !d2m.cb<memref<2x3x!t, #l1>> -> memref<2x3x!t, #l1>
    linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x, %y : memref<2x4x!t, #l1>, memref<3x4x!t, #l1>) outs(%z : memref<2x3x!t, #l1>) {
    ^bb0(%p: !t, %q: !t, %o: !t):
      %0 = "d2m.tile_matmul"(%p, %q, %o) : (!t, !t, !t) -> !t
      linalg.yield %0 : !t
    }
  }
  return
}
