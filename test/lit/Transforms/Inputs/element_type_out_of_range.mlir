
func.func @too_large() -> tensor<2xi64> {
  %0 = "ttir.constant"() <{value = dense<[1, 2147483648]> : tensor<2xi64>}> : () -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @unsigned_too_large() -> tensor<1xui64> {
  %0 = "ttir.constant"() <{value = dense<4294967296> : tensor<1xui64>}> : () -> tensor<1xui64>
  return %0 : tensor<1xui64>
}


// -----

// a bound that is also added to: saturating would change the sum
func.func @bound_and_summand(%x: tensor<4xi64>) -> (tensor<4xi64>, tensor<4xi64>) {
  %lo = "ttir.constant"() <{value = dense<1> : tensor<4xi64>}> : () -> tensor<4xi64>
  %hi = "ttir.constant"() <{value = dense<9223372036854775807> : tensor<4xi64>}> : () -> tensor<4xi64>
  %0 = "ttir.clamp_tensor"(%x, %lo, %hi) : (tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %1 = "ttir.add"(%x, %hi) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0, %1 : tensor<4xi64>, tensor<4xi64>
}
