// RUN: ttmlir-opt --canonicalize %s | FileCheck %s
// A product over 0/1 values is their minimum; over other values it stays a product.

// CHECK-LABEL: func.func @all_positive
// CHECK: "ttir.min"(%0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<8x64xbf16>) -> tensor<8xbf16>
// CHECK-NOT: ttir.prod
func.func @all_positive(%arg0: tensor<8x64xbf16>, %arg1: tensor<8x64xbf16>) -> tensor<8xbf16> {
  %0 = "ttir.gt"(%arg0, %arg1) : (tensor<8x64xbf16>, tensor<8x64xbf16>) -> tensor<8x64xbf16>
  %1 = "ttir.prod"(%0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<8x64xbf16>) -> tensor<8xbf16>
  return %1 : tensor<8xbf16>
}

// CHECK-LABEL: func.func @product_of_values
// CHECK: "ttir.prod"(%0)
func.func @product_of_values(%arg0: tensor<8x64xbf16>) -> tensor<8xbf16> {
  %0 = "ttir.exp"(%arg0) : (tensor<8x64xbf16>) -> tensor<8x64xbf16>
  %1 = "ttir.prod"(%0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<8x64xbf16>) -> tensor<8xbf16>
  return %1 : tensor<8xbf16>
}
