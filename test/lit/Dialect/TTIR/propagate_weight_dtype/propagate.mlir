// RUN: ttmlir-opt --ttir-propagate-weight-dtype %s | FileCheck %s

// Through a reshape and a permute to the matmul's weight; concatenated weights take the most precise request;
// an activation's annotation does not count, nor does a weight computed by other ops.
// CHECK-LABEL: func.func @weights
// CHECK: "ttir.matmul"(%arg0, %{{.*}}) <{{.*}}> {ttcore.weight_dtype = "bfp_bf4"}
// CHECK: "ttir.linear"({{.*}}) <{{.*}}> {ttcore.weight_dtype = "bfp_bf8"}
// CHECK: "ttir.matmul"(%arg4, %arg0)
// CHECK-NOT: weight_dtype
// CHECK: "ttir.matmul"(%arg0, %{{.*}}) <{{.*}}> :
// CHECK-NOT: weight_dtype
func.func @weights(%x: tensor<32x64xbf16>, %w: tensor<1x32x64xbf16> {ttcore.weight_dtype = "bfp_bf4"},
                   %a: tensor<64x16xbf16> {ttcore.weight_dtype = "bfp_bf4"}, %b: tensor<64x16xbf16> {ttcore.weight_dtype = "bfp_bf8"},
                   %y: tensor<32x32xbf16> {ttcore.weight_dtype = "bfp_bf8"}) -> (tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x64xbf16>, tensor<32x32xbf16>) {
  %0 = "ttir.reshape"(%w) <{shape = [32 : i32, 64 : i32]}> : (tensor<1x32x64xbf16>) -> tensor<32x64xbf16>
  %1 = "ttir.permute"(%0) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xbf16>) -> tensor<64x32xbf16>
  %2 = "ttir.matmul"(%x, %1) : (tensor<32x64xbf16>, tensor<64x32xbf16>) -> tensor<32x32xbf16>
  %3 = "ttir.concat"(%a, %b) <{dim = 1 : si32}> : (tensor<64x16xbf16>, tensor<64x16xbf16>) -> tensor<64x32xbf16>
  %4 = "ttir.linear"(%x, %3) : (tensor<32x64xbf16>, tensor<64x32xbf16>) -> tensor<32x32xbf16>
  %5 = "ttir.matmul"(%y, %x) : (tensor<32x32xbf16>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
  %6 = "ttir.exp"(%1) : (tensor<64x32xbf16>) -> tensor<64x32xbf16>
  %7 = "ttir.matmul"(%x, %6) : (tensor<32x64xbf16>, tensor<64x32xbf16>) -> tensor<32x32xbf16>
  return %2, %4, %5, %7 : tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x64xbf16>, tensor<32x32xbf16>
}
