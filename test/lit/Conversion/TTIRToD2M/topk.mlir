// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: not ttmlir-opt --ttcore-register-device --ttir-to-d2m --split-input-file %S/topk_negative.mlir 2>&1 | FileCheck %S/topk_negative.mlir
// RUN: not ttmlir-opt --ttcore-register-device "--ttir-to-d2m=ttnn-mode=true" %s 2>&1 | FileCheck %s --check-prefix=TTNN
// TTNN: error: a D2M topk in ttnn-mode is not converted yet
// ttir-to-d2m writes a topk as its chain: the input laid out (its reduced dim's tile padding masked to -inf), a
// pre-transpose for dim 1, the leaf generic of one d2m.topk_block over the whole reduction (indices generated from
// a one-tile si32 scratch), and the extract of the first ceil(k/32) tiles through a narrowing view.

// CHECK-LABEL: func.func @last_dim
// CHECK: d2m.to_layout %arg0, %{{.*}} -> tensor<1x1x2x3x!ttcore.tile<32x32, f32>
// CHECK: d2m.mask %{{.*}} logical_shape = [40, 70] fill_value = <neginf>
// CHECK: d2m.generic
// CHECK: "d2m.tile_transpose"
// CHECK: %[[SCRATCH:.*]] = d2m.empty() : tensor<1x1x1x1x!ttcore.tile<32x32, si32>
// CHECK: %[[VALUES:.*]] = d2m.empty() : tensor<1x1x2x3x!ttcore.tile<32x32, f32>
// CHECK: %[[INDICES:.*]] = d2m.empty() : tensor<1x1x2x3x!ttcore.tile<32x32, si32>
// CHECK: %[[LEAF:.*]]:2 = d2m.generic {{.*}}d2m.topk_index_type = si32
// CHECK-SAME: indexing_maps = [#map, #[[CONST:map[0-9]+]], #map, #map]
// CHECK-NEXT: ins(%{{.*}}, %[[SCRATCH]] :
// CHECK-NEXT: outs(%[[VALUES]], %[[INDICES]] :
// CHECK: "d2m.topk_block"({{.*}}) <{dim = 1 : i32, generate_indices = true, k = 5 : i32, num_elements = 70 : i64, stable_sort = false}>
// CHECK: d2m.view_layout %[[LEAF]]#0 {{.*}} -> tensor<1x1x2x1x!ttcore.tile<32x32, f32>
// CHECK: "d2m.tile_transpose"
// CHECK: d2m.to_layout {{.*}} into tensor<40x5xf32>
// CHECK: d2m.view_layout %[[LEAF]]#1 {{.*}} -> tensor<1x1x2x1x!ttcore.tile<32x32, si32>
// CHECK: "d2m.tile_transpose"
// CHECK: d2m.to_layout {{.*}} into tensor<40x5xsi32>
func.func @last_dim(%arg0: tensor<40x70xf32>) -> (tensor<40x5xf32>, tensor<40x5xsi32>) {
  %v, %i = "ttir.topk"(%arg0) <{k = 5 : i32, dim = -1 : i32, largest = true, sorted = true}> : (tensor<40x70xf32>) -> (tensor<40x5xf32>, tensor<40x5xsi32>)
  return %v, %i : tensor<40x5xf32>, tensor<40x5xsi32>
}

// dim 0 sorts down tile columns as it is: no transpose; the extract is a typecast (to the indices' type).
// CHECK-LABEL: func.func @first_dim
// CHECK-NOT: d2m.tile_transpose
// CHECK: "d2m.topk_block"({{.*}}) <{dim = 0 : i32, generate_indices = true, k = 40 : i32, num_elements = 96 : i64
// CHECK: d2m.view_layout {{.*}} -> tensor<1x1x2x1x!ttcore.tile<32x32, bf16>
// CHECK: "d2m.tile_typecast"
// CHECK: d2m.view_layout {{.*}} -> tensor<1x1x2x1x!ttcore.tile<32x32, si32>
// CHECK: "d2m.tile_typecast"
// CHECK-NOT: d2m.tile_transpose
// CHECK: return
func.func @first_dim(%arg0: tensor<96x32xbf16>) -> (tensor<40x32xbf16>, tensor<40x32xsi32>) {
  %v, %i = "ttir.topk"(%arg0) <{k = 40 : i32, dim = 0 : i32, largest = true, sorted = false}> : (tensor<96x32xbf16>) -> (tensor<40x32xbf16>, tensor<40x32xsi32>)
  return %v, %i : tensor<40x32xbf16>, tensor<40x32xsi32>
}

// Smallest-k negates the laid-out input (before its padding is masked to -inf) and the extracted values back.
// CHECK-LABEL: func.func @smallest
// CHECK: d2m.to_layout %arg0
// CHECK: "d2m.tile_negative"
// CHECK: d2m.mask
// CHECK: "d2m.topk_block"
// CHECK: "d2m.tile_transpose"
// CHECK: "d2m.tile_negative"
// CHECK: d2m.to_layout {{.*}} into tensor<32x3xf32>
func.func @smallest(%arg0: tensor<32x50xf32>) -> (tensor<32x3xf32>, tensor<32x3xsi32>) {
  %v, %i = "ttir.topk"(%arg0) <{k = 3 : i32, dim = 1 : i32, largest = false, sorted = true}> : (tensor<32x50xf32>) -> (tensor<32x3xf32>, tensor<32x3xsi32>)
  return %v, %i : tensor<32x3xf32>, tensor<32x3xsi32>
}

// One tile of reduction is widened to the pair the merge tree sorts: padded with zeros, plus host data of zeros
// inside the input and -inf past it, so no mask is needed.
// CHECK-LABEL: func.func @one_tile
// CHECK: d2m.to_layout %arg0
// CHECK: d2m.generic
// CHECK: d2m.to_layout {{.*}} into tensor<8x64xf32>
// CHECK: "ttir.constant"() <{value = dense<"0x0000{{.*}}000080FF{{.*}}"> : tensor<8x64xf32>}>
// CHECK: "d2m.tile_add"
// CHECK-NOT: d2m.mask
// CHECK: "d2m.topk_block"({{.*}}) <{dim = 1 : i32, generate_indices = true, k = 2 : i32, num_elements = 9 : i64
func.func @one_tile(%arg0: tensor<8x9xf32>) -> (tensor<8x2xf32>, tensor<8x2xsi32>) {
  %v, %i = "ttir.topk"(%arg0) <{k = 2 : i32, dim = 1 : i32, largest = true, sorted = true}> : (tensor<8x9xf32>) -> (tensor<8x2xf32>, tensor<8x2xsi32>)
  return %v, %i : tensor<8x2xf32>, tensor<8x2xsi32>
}
