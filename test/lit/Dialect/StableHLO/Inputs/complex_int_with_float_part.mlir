// an integer complex literal with a fractional part: refused, not truncated
func.func @main() -> tensor<2xcomplex<i32>> {
  %0 = stablehlo.constant dense<[(1, 1.5), (2, 3)]> : tensor<2xcomplex<i32>>
  return %0 : tensor<2xcomplex<i32>>
}
