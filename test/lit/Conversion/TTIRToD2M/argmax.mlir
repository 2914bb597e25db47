// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: not ttmlir-opt --ttcore-register-device --ttir-to-d2m --split-input-file %S/argmax_negative.mlir 2>&1 | FileCheck %S/argmax_negative.mlir
// An argmax over the last dim: in f32, the row maxima, each element's candidate position p + N * (x != max) (the
// positions an arange row of host data), the least candidate as -max(-c), cast to si32.

// CHECK-LABEL: func.func @argmax
// CHECK: d2m.tile_typecast
// CHECK: d2m.tile_reduce_max
// CHECK: d2m.tile_ne
// CHECK: d2m.tile_fill
// CHECK: "ttir.arange"() <{arange_dimension = 1 : i64, end = 64 : si64, start = 0 : si64, step = 1 : si64}> : () -> tensor<1x64xf32>
// CHECK: d2m.tile_mul
// CHECK: d2m.tile_add
// CHECK: d2m.tile_negative
// CHECK: d2m.tile_reduce_max
// CHECK: d2m.tile_negative
// CHECK: d2m.tile_typecast
// CHECK: -> tensor<32x1xsi32>
func.func @argmax(%a: tensor<32x64xbf16>) -> tensor<32x1xsi32> {
  %0 = "ttir.argmax"(%a) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<32x64xbf16>) -> tensor<32x1xsi32>
  return %0 : tensor<32x1xsi32>
}
