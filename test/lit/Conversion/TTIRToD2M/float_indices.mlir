// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// A lookup whose indices are floats (a model's flat indices computed by a matmul): they are cast to si32 on the
// device first, and the embedding program reads the cast indices.

// CHECK-LABEL: func.func @rows
// CHECK: "d2m.tile_typecast"(%{{.*}}) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, si32>
// CHECK: d2m.to_layout %{{.*}}, %{{.*}} : {{.*}} into tensor<1x70xsi32>
// CHECK: d2m.to_layout %{{.*}}, %{{.*}} : tensor<1x70xsi32> into
// CHECK: d2m.embedding
// CHECK: -> tensor<1x70x8xbf16>
func.func @rows(%i: tensor<1x70xf32>, %w: tensor<100x8xbf16>) -> tensor<1x70x8xbf16> {
  %0 = "ttir.embedding"(%i, %w) : (tensor<1x70xf32>, tensor<100x8xbf16>) -> tensor<1x70x8xbf16>
  return %0 : tensor<1x70x8xbf16>
}

// Integer indices are read as they are.

// CHECK-LABEL: func.func @integer_rows
// CHECK-NOT: d2m.tile_typecast
// CHECK: d2m.embedding
func.func @integer_rows(%i: tensor<1x70xsi32>, %w: tensor<100x8xbf16>) -> tensor<1x70x8xbf16> {
  %0 = "ttir.embedding"(%i, %w) : (tensor<1x70xsi32>, tensor<100x8xbf16>) -> tensor<1x70x8xbf16>
  return %0 : tensor<1x70x8xbf16>
}
