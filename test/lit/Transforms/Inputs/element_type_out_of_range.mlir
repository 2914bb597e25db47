
func.func @too_large() -> tensor<2xi64> {
  %0 = "ttir.constant"() <{value = dense<[1, 2147483648]> : tensor<2xi64>}> : () -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @unsigned_too_large() -> tensor<1xui64> {
  %0 = "ttir.constant"() <{value = dense<4294967296> : tensor<1xui64>}> : () -> tensor<1xui64>
  return %0 : tensor<1xui64>
}

