// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline %s | FileCheck %s --check-prefix=KERNEL
// clamp_scalar's bounds and selu's scale and alpha stay attributes of their tile op, as the tiles hold them (f32 for
// float tiles, i32 for integer ones); the SFPU call takes each as 32 bits (a float's bits: 0.75 is 0x3F400000).

// CHECK-LABEL: func.func @clamp
// CHECK: "d2m.tile_clamp_scalar"(%{{.*}}) <{max = 7.500000e-01 : f32, min = -5.000000e-01 : f32}>
// KERNEL-LABEL: func.func private @compute_kernel
// KERNEL-DAG: %[[MIN:.*]] = "emitc.constant"() <{value = -1090519040 : i32}>
// KERNEL-DAG: %[[MAX:.*]] = "emitc.constant"() <{value = 1061158912 : i32}>
// KERNEL: emitc.call_opaque "clamp_tile_init"()
// KERNEL: emitc.call_opaque "clamp_tile"(%{{.*}}, %[[MIN]], %[[MAX]])
func.func @clamp(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "ttir.clamp_scalar"(%a) <{min = -0.5 : f32, max = 0.75 : f32}> : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// CHECK-LABEL: func.func @clamp_ints
// CHECK: "d2m.tile_clamp_scalar"(%{{.*}}) <{max = 5 : i32, min = -3 : i32}>
func.func @clamp_ints(%a: tensor<64x64xsi32>) -> tensor<64x64xsi32> {
  %0 = "ttir.clamp_scalar"(%a) <{min = -3 : i32, max = 5 : i32}> : (tensor<64x64xsi32>) -> tensor<64x64xsi32>
  return %0 : tensor<64x64xsi32>
}

// CHECK-LABEL: func.func @selu
// CHECK: "d2m.tile_selu"(%{{.*}}) <{alpha = 5.000000e-01 : f32, scale = 2.000000e+00 : f32}>
func.func @selu(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "ttir.selu"(%a) <{scale = 2.0 : f32, alpha = 0.5 : f32}> : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
