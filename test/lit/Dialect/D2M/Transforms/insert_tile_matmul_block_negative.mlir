// RUN: true
// Read by insert_tile_matmul_block.mlir: with use-tile-matmul the tile loops stay, but tile_matmul has no
// transposed-B form.

#l1 = #ttcore.memory_space<l1>
!t = !ttcore.tile<32x32, bf16>

// CHECK-LABEL: func.func @matmul
// CHECK: "d2m.tile_matmul"(
// CHECK-NOT: tile_matmul_block
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

// -----

#l1 = #ttcore.memory_space<l1>
!t = !ttcore.tile<32x32, bf16>

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
      // ERR: insert_tile_matmul_block_negative.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: 'd2m.tile_matmul' op transpose_b is only supported by tile_matmul_block lowering
      %0 = "d2m.tile_matmul"(%p, %q, %o) : (!t, !t, !t) -> !t
      linalg.yield %0 : !t
    }
  }
  return
}
