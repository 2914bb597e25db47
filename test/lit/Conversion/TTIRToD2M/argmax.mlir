// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: not ttmlir-opt --ttcore-register-device --ttir-to-d2m --split-input-file %S/argmax_negative.mlir 2>&1 | FileCheck %S/argmax_negative.mlir
// An argmax over the last dim of a matrix: the row maxima and where each element is one (x == max), in bf16; each
// element ranked in f32 as -p where it is one, else -(p + N) (the rows -p and -(p + N) arange rows of host data,
// negated); the greatest rank of each row is minus its first maximum's position, negated and cast to si32.

// CHECK-LABEL: func.func @argmax
// CHECK: d2m.tile_reduce_max
// CHECK: into tensor<32x1xbf16>
// CHECK: d2m.tile_eq
// CHECK: into tensor<32x64xbf16>
// CHECK: "ttir.arange"() <{arange_dimension = 1 : i64, end = 64 : si64, start = 0 : si64, step = 1 : si64}> : () -> tensor<1x64xf32>
// CHECK: d2m.tile_negative
// CHECK: "ttir.arange"() <{arange_dimension = 1 : i64, end = 128 : si64, start = 64 : si64, step = 1 : si64}> : () -> tensor<1x64xf32>
// CHECK: d2m.tile_negative
// CHECK: d2m.tile_where
// CHECK: into tensor<32x64xf32>
// CHECK: d2m.tile_reduce_max
// CHECK: into tensor<32x1xf32>
// CHECK: d2m.tile_negative
// CHECK: d2m.tile_typecast
// CHECK: -> tensor<32x1xsi32>
func.func @argmax(%a: tensor<32x64xbf16>) -> tensor<32x1xsi32> {
  %0 = "ttir.argmax"(%a) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<32x64xbf16>) -> tensor<32x1xsi32>
  return %0 : tensor<32x1xsi32>
}

// An argmax over the leading dim of a 3-d tensor, without keep_dim: the input permuted so the reduced dim is last
// (a view of it, copied into a 40x64x3 tensor), folded into a 2560x3 matrix, its rows' first maxima found as above,
// and that column reshaped to the 40x64 result.

// CHECK-LABEL: func.func @leading_dim
// CHECK: d2m.view_layout
// CHECK: into tensor<40x64x3xbf16>
// CHECK: into tensor<2560x3xbf16>
// CHECK: d2m.tile_reduce_max
// CHECK: d2m.tile_eq
// CHECK: "ttir.arange"() <{arange_dimension = 1 : i64, end = 3 : si64, start = 0 : si64, step = 1 : si64}> : () -> tensor<1x3xf32>
// CHECK: d2m.tile_where
// CHECK: d2m.tile_reduce_max
// CHECK: d2m.tile_negative
// CHECK: into tensor<40x64xf32>
// CHECK: d2m.tile_typecast
// CHECK: -> tensor<40x64xsi32>
func.func @leading_dim(%a: tensor<3x40x64xbf16>) -> tensor<40x64xsi32> {
  %0 = "ttir.argmax"(%a) <{dim_arg = [0 : i32], keep_dim = false}> : (tensor<3x40x64xbf16>) -> tensor<40x64xsi32>
  return %0 : tensor<40x64xsi32>
}

// Two dims reduced at once, the flat index within them: a 2x5 matrix of the 5 rows of 2x4 elements (no permute:
// the kept dim is already first; the argument's reshape a view the host makes).

// CHECK-LABEL: func.func @two_dims
// CHECK-NOT: into tensor<{{[0-9x]+}}xf32>
// CHECK: "ttir.reshape"(%arg0) <{shape = [5 : i32, 8 : i32]}> : (tensor<5x2x4xf32>) -> tensor<5x8xf32>
// CHECK: "ttir.arange"() <{arange_dimension = 1 : i64, end = 8 : si64, start = 0 : si64, step = 1 : si64}> : () -> tensor<1x8xf32>
// CHECK: into tensor<5x1xf32>
// CHECK: into tensor<5x1x1xf32>
// CHECK: d2m.tile_typecast
// CHECK: -> tensor<5x1x1xsi32>
func.func @two_dims(%a: tensor<5x2x4xf32>) -> tensor<5x1x1xsi32> {
  %0 = "ttir.argmax"(%a) <{dim_arg = [1 : i32, 2 : i32], keep_dim = true}> : (tensor<5x2x4xf32>) -> tensor<5x1x1xsi32>
  return %0 : tensor<5x1x1xsi32>
}
