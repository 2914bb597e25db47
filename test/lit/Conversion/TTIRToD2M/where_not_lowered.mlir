// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s --check-prefix=D2M
// Read by broadcast.mlir: ttir.where becomes a d2m.tile_where (its broadcast operands spread), which the Metal
// conversion does not run yet and refuses where the op was.

// D2M-LABEL: func.func @choose
// D2M: "d2m.tile_bcast"(%{{.*}}) <{bcast_type = #d2m<tile_bcast_type row>}>
// D2M-NEXT: "d2m.tile_where"(%{{.*}}, %{{.*}}, %{{.*}}) : (!ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
func.func @choose(%c: tensor<64x64xf32>, %a: tensor<64x64xf32>, %b: tensor<1x64xf32>) -> tensor<64x64xf32> {
  // CHECK: where_not_lowered.mlir:[[# @LINE + 1]]:8: error: 'd2m.tile_where' in a generic is not lowered to TTMetal yet
  %0 = "ttir.where"(%c, %a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
