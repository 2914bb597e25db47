// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel %s | FileCheck %s
// A d2m.mask of device data (its padding holds what the op writing it computed) becomes, per padded dim, a program
// selecting tile by tile the input where a mask of ones in the logical shape along that dim (host data, so zero in
// the padding; 40x1 spread across the columns, then 1x40 spread across the rows) is set, and a tile of the fill
// value elsewhere. A mask of host data (staged padded with zeros; here also once moved between device layouts,
// which folds into one move) is left to convert-d2m-to-ttmetal.

#in = #ttcore.metal_layout<logical_shape = 40x40, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
!grid22 = tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #in>
!grid21 = tensor<2x1x1x2x!ttcore.tile<32x32, f32>, #in>
!shard = tensor<1x2x!ttcore.tile<32x32, f32>>
#map = affine_map<(d0, d1) -> (d0, d1)>
#parallel = #ttcore.iterator_type<parallel>

// Host data crosses row-major and is tilized on the device by a program of its own.
// CHECK-LABEL: func.func @device
// CHECK: %[[X:.*]] = d2m.to_layout %arg0, %{{.*}} : tensor<40x40xf32> into tensor<2x1x32x64xf32
// CHECK: %[[X_IN:.*]] = d2m.generic
// CHECK-NEXT: ins(%[[X]] :
// CHECK: %[[NEG:.*]] = d2m.generic {{.*}}threads = [{{.*}}#d2m.thread<compute
// CHECK-NEXT: ins(%[[X_IN]] :
// CHECK: %[[RESULT:.*]] = d2m.empty() : tensor<2x1x1x2x!ttcore.tile<32x32, f32>, #[[IN:layout[0-9]*]]>
// CHECK: %[[FILL:.*]] = d2m.generic {{.*}}grid = #ttcore.grid<1x1>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: d2m.tile_fill
// CHECK: %[[ROWS:.*]] = "ttir.constant"() <{value = dense<1.000000e+00> : tensor<40x1xf32>}>
// CHECK: %[[ROWS_RM:.*]] = d2m.to_layout %[[ROWS]], %{{.*}} : tensor<40x1xf32> into tensor<2x1x32x32xf32
// CHECK: %[[ROWS_IN:.*]] = d2m.generic
// CHECK-NEXT: ins(%[[ROWS_RM]] :
// CHECK-NEXT: outs(%{{.*}} : tensor<2x1x1x1x!ttcore.tile<32x32, f32>
// CHECK: %[[ROW_MASKED:.*]] = d2m.generic {{.*}}threads = [{{.*}}#d2m.thread<compute, @[[WHERE:.*]]>]}
// CHECK-NEXT: ins(%[[ROWS_IN]], %[[NEG]], %[[FILL]] :
// CHECK: %[[COLS:.*]] = "ttir.constant"() <{value = dense<1.000000e+00> : tensor<1x40xf32>}>
// CHECK: %[[COLS_RM:.*]] = d2m.to_layout %[[COLS]], %{{.*}} : tensor<1x40xf32> into tensor<1x1x32x64xf32
// CHECK: %[[COLS_IN:.*]] = d2m.generic
// CHECK-NEXT: ins(%[[COLS_RM]] :
// CHECK-NEXT: outs(%{{.*}} : tensor<1x1x1x2x!ttcore.tile<32x32, f32>
// CHECK: %[[MASKED:.*]] = d2m.generic
// CHECK-NEXT: ins(%[[COLS_IN]], %[[ROW_MASKED]], %[[FILL]] :
// CHECK-NEXT: outs(%[[RESULT]] :
// CHECK-NOT: d2m.mask
// The result goes to the host row-major: untilized on its cores by a program of its own first.
// CHECK: %[[UNTILIZED:.*]] = d2m.generic
// CHECK-NEXT: ins(%[[MASKED]] : tensor<2x1x1x2x!ttcore.tile<32x32, f32>, #layout>)
// CHECK-NEXT: outs(%{{.*}} : tensor<2x1x32x64xf32, #layout>)
// CHECK: d2m.to_layout %[[UNTILIZED]]
func.func @device(%arg0: tensor<40x40xf32>) -> tensor<40x40xf32> {
  %0 = d2m.empty() : !grid21
  %1 = d2m.to_layout %arg0, %0 : tensor<40x40xf32> into !grid21 -> !grid21
  %2 = d2m.empty() : !grid21
  %3 = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<2x1>, indexing_maps = [#map, #map], iterator_types = [#parallel, #parallel], threads = [#d2m.thread<unified>]}
      ins(%1 : !grid21)
      outs(%2 : !grid21) {
    %b0 = d2m.block_index(0) : index
    %b1 = d2m.block_index(1) : index
    %in = tensor.empty() : !shard
    %x = d2m.remote_load %in %1[%b0, %b1] : !shard, !grid21 -> !shard
    %out = tensor.empty() : !shard
    %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : !shard) outs(%out : !shard) {
    ^bb0(%a: !ttcore.tile<32x32, f32>, %o: !ttcore.tile<32x32, f32>):
      %n = "d2m.tile_negative"(%a) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
      linalg.yield %n : !ttcore.tile<32x32, f32>
    } -> !shard
    %s = d2m.remote_store %2[%b0, %b1] %y : !grid21, !shard -> !grid21
    d2m.yield %s : (!grid21)
  } : !grid21
  %4 = d2m.empty() : !grid21
  %5 = d2m.mask %3, %4 logical_shape = [40, 40] fill_value = <neginf> : !grid21 into !grid21 -> !grid21
  %6 = d2m.empty() : tensor<40x40xf32>
  %7 = d2m.to_layout %5, %6 : !grid21 into tensor<40x40xf32> -> tensor<40x40xf32>
  return %7 : tensor<40x40xf32>
}

// CHECK-LABEL: func.func @host
// CHECK: d2m.mask %{{.*}}, %{{.*}} logical_shape = [40, 40] fill_value = <zero>
// CHECK: func.func private @[[WHERE]]
// CHECK: ttkernel.where_tile(
func.func @host(%arg0: tensor<40x40xf32>) -> tensor<40x40xf32> {
  %0 = d2m.empty() : !grid22
  %1 = d2m.to_layout %arg0, %0 : tensor<40x40xf32> into !grid22 -> !grid22
  %2 = d2m.empty() : !grid21
  %3 = d2m.to_layout %1, %2 : !grid22 into !grid21 -> !grid21
  %4 = d2m.empty() : !grid21
  %5 = d2m.mask %3, %4 logical_shape = [40, 40] fill_value = <zero> : !grid21 into !grid21 -> !grid21
  %6 = d2m.empty() : tensor<40x40xf32>
  %7 = d2m.to_layout %5, %6 : !grid21 into tensor<40x40xf32> -> tensor<40x40xf32>
  return %7 : tensor<40x40xf32>
}
