// RUN: ttmlir-opt --canonicalize %s | FileCheck %s
// Two casts in a row become one, unless conservative folding keeps a pair that may lose what one cast keeps.

// CHECK-LABEL: func.func @chain_becomes_one
// CHECK: "ttir.typecast"(%arg0) <{conservative_folding = false}> : (tensor<32x32xbf16>) -> tensor<32x32xf16>
// CHECK-NOT: ttir.typecast
func.func @chain_becomes_one(%arg0: tensor<32x32xbf16>) -> tensor<32x32xf16> {
  %0 = "ttir.typecast"(%arg0) : (tensor<32x32xbf16>) -> tensor<32x32xf32>
  %1 = "ttir.typecast"(%0) : (tensor<32x32xf32>) -> tensor<32x32xf16>
  return %1 : tensor<32x32xf16>
}

// CHECK-LABEL: func.func @conservative_keeps_truncation
// CHECK: "ttir.typecast"(%arg0) <{conservative_folding = true}> : (tensor<32x32xf32>) -> tensor<32x32xi32>
// CHECK: "ttir.typecast"(%0) : (tensor<32x32xi32>) -> tensor<32x32xbf16>
func.func @conservative_keeps_truncation(%arg0: tensor<32x32xf32>) -> tensor<32x32xbf16> {
  %0 = "ttir.typecast"(%arg0) <{conservative_folding = true}> : (tensor<32x32xf32>) -> tensor<32x32xi32>
  %1 = "ttir.typecast"(%0) : (tensor<32x32xi32>) -> tensor<32x32xbf16>
  return %1 : tensor<32x32xbf16>
}

// CHECK-LABEL: func.func @conservative_keeps_narrow_then_widen
// CHECK: -> tensor<32x32xui8>
// CHECK: -> tensor<32x32xui32>
func.func @conservative_keeps_narrow_then_widen(%arg0: tensor<32x32xui32>) -> tensor<32x32xui32> {
  %0 = "ttir.typecast"(%arg0) : (tensor<32x32xui32>) -> tensor<32x32xui8>
  %1 = "ttir.typecast"(%0) <{conservative_folding = true}> : (tensor<32x32xui8>) -> tensor<32x32xui32>
  return %1 : tensor<32x32xui32>
}

// CHECK-LABEL: func.func @conservative_pair_of_widenings
// CHECK: "ttir.typecast"(%arg0) <{conservative_folding = true}> : (tensor<32x32xui8>) -> tensor<32x32xf32>
// CHECK-NOT: ttir.typecast
func.func @conservative_pair_of_widenings(%arg0: tensor<32x32xui8>) -> tensor<32x32xf32> {
  %0 = "ttir.typecast"(%arg0) <{conservative_folding = true}> : (tensor<32x32xui8>) -> tensor<32x32xi32>
  %1 = "ttir.typecast"(%0) <{conservative_folding = true}> : (tensor<32x32xi32>) -> tensor<32x32xf32>
  return %1 : tensor<32x32xf32>
}
