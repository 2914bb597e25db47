func.func @f(%a: tensor<2xi32>) {
  // the constant is i64
  check.expect_eq_const %a, dense<[1, 2]> : tensor<2xi64>
  return
}
