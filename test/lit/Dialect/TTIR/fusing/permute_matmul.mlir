// RUN: ttmlir-opt --ttir-fusing="enable-permute-matmul-fusion=true" %s | FileCheck %s
// RUN: ttmlir-opt --ttir-fusing %s | FileCheck %s --check-prefix=OFF

// A transposed weight feeds the matmul's transpose flag instead of a permute; its weight dtype stays on the op.
// A permute that moves a batch dimension is not a transpose and stays.
// CHECK-LABEL: func.func @transposed_weight
// CHECK-NOT: "ttir.permute"
// CHECK: "ttir.matmul"(%arg0, %arg1) <{{[{]}}{{.*}}transpose_b = true}> {ttcore.weight_dtype = "bfp_bf8"}
// CHECK-LABEL: func.func @batch_permute
// CHECK: "ttir.permute"
// CHECK: "ttir.matmul"
// OFF-LABEL: func.func @transposed_weight
// OFF: "ttir.permute"
func.func @transposed_weight(%arg0: tensor<32x64xbf16>, %arg1: tensor<128x64xbf16>) -> tensor<32x128xbf16> {
  %0 = "ttir.permute"(%arg1) <{permutation = array<i64: 1, 0>}> : (tensor<128x64xbf16>) -> tensor<64x128xbf16>
  %1 = "ttir.matmul"(%arg0, %0) {ttcore.weight_dtype = "bfp_bf8"} : (tensor<32x64xbf16>, tensor<64x128xbf16>) -> tensor<32x128xbf16>
  return %1 : tensor<32x128xbf16>
}
func.func @batch_permute(%arg0: tensor<2x32x64xbf16>, %arg1: tensor<64x2x128xbf16>) -> tensor<2x32x128xbf16> {
  %0 = "ttir.permute"(%arg1) <{permutation = array<i64: 1, 0, 2>}> : (tensor<64x2x128xbf16>) -> tensor<2x64x128xbf16>
  %1 = "ttir.matmul"(%arg0, %0) : (tensor<2x32x64xbf16>, tensor<2x64x128xbf16>) -> tensor<2x32x128xbf16>
  return %1 : tensor<2x32x128xbf16>
}
