// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s
// TOSA's rules, in the words MLIR's TOSA verifiers use.

func.func @ranks(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.add' op operands don't have matching ranks}}
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @elements(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.sub' op requires the same element type for all operands and results}}
  %0 = tosa.sub %a, %b : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reshape(%a: tensor<2x3xf32>) -> tensor<7xf32> {
  %s = tosa.const_shape {values = dense<7> : tensor<1xindex>} : () -> !tosa.shape<1>
  // expected-error @+1 {{'tosa.reshape' op cannot reshape 6 elements into 7}}
  %0 = tosa.reshape %a, %s : (tensor<2x3xf32>, !tosa.shape<1>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

func.func @matmul(%a: tensor<2x4x8xf32>, %b: tensor<2x6x3xf32>) -> tensor<2x4x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.matmul' op expect the channel dimension of a (8) to equal the channel dimension of b (6)}}
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x4x8xf32>, tensor<2x6x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @pool(%a: tensor<1x8x8x2xf32>) -> tensor<1x3x3x2xf32> {
  // expected-error @+1 {{'tosa.max_pool2d' op calculated output height did not match expected: calculated=4, expected=3}}
  %0 = tosa.max_pool2d %a {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x2xf32>) -> tensor<1x3x3x2xf32>
  return %0 : tensor<1x3x3x2xf32>
}
