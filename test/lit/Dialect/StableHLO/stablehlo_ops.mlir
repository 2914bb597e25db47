// REQUIRES: stablehlo
// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --mlir-print-op-generic %s | ttmlir-opt | FileCheck %s
// The StableHLO project's pretty syntax reads and prints back unchanged; the generic form reads too.

module @jit_mlp attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>, %idx: tensor<2xi32>) -> (tensor<2x4xf32> {jax.result_info = "result"}) {
    // CHECK: stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    // CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
    %mm = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
    // CHECK: stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %b = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    // CHECK: stablehlo.maximum %{{.*}}, %{{.*}} : tensor<2x4xf32>
    %relu = stablehlo.maximum %mm, %b : tensor<2x4xf32>
    // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
    %sum = stablehlo.reduce(%relu init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
    // CHECK: stablehlo.compare GT, %{{.*}}, %{{.*}}, FLOAT : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
    %gt = stablehlo.compare  GT, %mm, %b,  FLOAT : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
    // CHECK: stablehlo.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xi1>, tensor<2x4xf32>
    %sel = stablehlo.select %gt, %mm, %b : tensor<2x4xi1>, tensor<2x4xf32>
    // CHECK: stablehlo.iota dim = 1 : tensor<2x4xi32>
    %iota = stablehlo.iota dim = 1 : tensor<2x4xi32>
    // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}), (%{{.*}} init: %{{.*}}) across dimensions = [1] : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
    // CHECK-NEXT: reducer(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>) (%[[C:.*]]: tensor<i32>, %[[D:.*]]: tensor<i32>)
    // CHECK: stablehlo.compare GE, %[[A]], %[[B]], FLOAT
    // CHECK: stablehlo.return %{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %am:2 = stablehlo.reduce(%sel init: %zero), (%iota init: %c0) across dimensions = [1] : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
     reducer(%a: tensor<f32>, %b2: tensor<f32>) (%i: tensor<i32>, %j: tensor<i32>)  {
      %ge = stablehlo.compare  GE, %a, %b2,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %v = stablehlo.select %ge, %a, %b2 : tensor<i1>, tensor<f32>
      %k = stablehlo.select %ge, %i, %j : tensor<i1>, tensor<i32>
      stablehlo.return %v, %k : tensor<f32>, tensor<i32>
    }
    // CHECK: stablehlo.slice %{{.*}} [0:2, 0:4:2] : (tensor<2x4xf32>) -> tensor<2x2xf32>
    %sl = stablehlo.slice %sel [0:2, 0:4:2] : (tensor<2x4xf32>) -> tensor<2x2xf32>
    // CHECK: stablehlo.transpose %{{.*}}, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %t = stablehlo.transpose %sl, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
    // CHECK: stablehlo.concatenate %{{.*}}, %{{.*}}, dim = 1 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x4xf32>
    %cat = stablehlo.concatenate %t, %sl, dim = 1 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x4xf32>
    // CHECK: stablehlo.convert %{{.*}} : (tensor<2x4xi32>) -> tensor<2x4xf32>
    %cv = stablehlo.convert %iota : (tensor<2x4xi32>) -> tensor<2x4xf32>
    // CHECK: stablehlo.pad %{{.*}}, %{{.*}}, low = [0, 1], high = [0, 0], interior = [0, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x5xf32>
    %pad = stablehlo.pad %cv, %zero, low = [0, 1], high = [0, 0], interior = [0, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x5xf32>
    // CHECK: stablehlo.reshape %{{.*}} : (tensor<2x5xf32>) -> tensor<10xf32>
    %r = stablehlo.reshape %pad : (tensor<2x5xf32>) -> tensor<10xf32>
    // CHECK: stablehlo.custom_call @mhlo.erf(%{{.*}}) {mhlo.version = 1 : i64} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %erf = stablehlo.custom_call @mhlo.erf(%cat) {mhlo.version = 1 : i64} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    // CHECK: stablehlo.composite "tenstorrent.gelu" %{{.*}} {composite_attributes = {approximate = "tanh"}, decomposition = @gelu_impl} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %g = stablehlo.composite "tenstorrent.gelu" %erf {composite_attributes = {approximate = "tanh"}, decomposition = @gelu_impl} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    // CHECK: "stablehlo.gather"(%{{.*}}, %{{.*}}) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}>
    %rows = "stablehlo.gather"(%g, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<2x4xf32>, tensor<2xi32>) -> tensor<2x4xf32>
    // CHECK: stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = {{\[\[}}0, 0]], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x4xf32>, tensor<1x4x4xf32>) -> tensor<1x2x4xf32>
    %x3 = stablehlo.reshape %rows : (tensor<2x4xf32>) -> tensor<1x2x4xf32>
    %w3 = stablehlo.reshape %w : (tensor<8x4xf32>) -> tensor<1x8x4xf32>
    %w4 = stablehlo.slice %w3 [0:1, 0:4, 0:4] : (tensor<1x8x4xf32>) -> tensor<1x4x4xf32>
    %conv = stablehlo.convolution(%x3, %w4) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x4xf32>, tensor<1x4x4xf32>) -> tensor<1x2x4xf32>
    return %sel : tensor<2x4xf32>
  }
  func.func private @gelu_impl(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
    return %arg0 : tensor<2x4xf32>
  }
}
