// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// An SFPU comparison writes f32 1.0/0.0 into DST, which an si32 tile would read as other bits: integers are
// compared as their difference against zero. Floats keep the comparison.

// CHECK-LABEL: func.func @ints
// CHECK: %[[D:.*]] = "d2m.tile_sub"(%{{.*}}, %{{.*}}) : (!ttcore.tile<32x32, si32>, !ttcore.tile<32x32, si32>)
// CHECK: "d2m.tile_gtz"(%[[D]])
// CHECK-NOT: d2m.tile_gt"
func.func @ints(%a: tensor<64x64xsi32>, %b: tensor<64x64xsi32>) -> tensor<64x64xsi32> {
  %0 = "ttir.gt"(%a, %b) : (tensor<64x64xsi32>, tensor<64x64xsi32>) -> tensor<64x64xsi32>
  return %0 : tensor<64x64xsi32>
}

// CHECK-LABEL: func.func @floats
// CHECK: "d2m.tile_gt"(%{{.*}}, %{{.*}}) : (!ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>)
func.func @floats(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "ttir.gt"(%a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
