// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// A constant holds dense (or dense resource) integers or floats: sparse elements and complex values are refused.
func.func @sparse() -> tensor<2x3xf32> {
  // expected-error @+1 {{'ttir.constant' op value attribute must be one of DenseResourceElementsAttr or DenseElementsAttr.}}
  %0 = "ttir.constant"() <{value = sparse<[[1, 2]], [5.0]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @complex() -> tensor<2xcomplex<f32>> {
  // expected-error @+1 {{'ttir.constant' op value attribute must be of int or float type.}}
  %0 = "ttir.constant"() <{value = dense<[(1.0, 2.0), (0.0, -1.0)]> : tensor<2xcomplex<f32>>}> : () -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}
