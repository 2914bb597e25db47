// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="experimental-weight-dtype=bfp_bf8" %s | FileCheck %s

// A weight transposed before its product (torch's linear: x @ Wᵀ) reaches the product as a const-eval result,
// computed from the parameter alone: it is a weight all the same and is converted, once, in const-eval.
// CHECK-LABEL: func.func private @project_const_eval_0
// CHECK: call @cpu_hoisted_const_eval
// CHECK: "ttnn.typecast"{{.*}}-> tensor<64x128x!ttcore.tile<32x32, bfp_bf8>
// CHECK-LABEL: func.func @project(
// CHECK: %[[W:[0-9]+]] = ttcore.load_cached(@project_const_eval_0, [%arg1])
// CHECK-NOT: "ttnn.typecast"
// CHECK: "ttnn.matmul"(%arg0, %[[W]])
module {
  func.func @project(%x: tensor<32x64xbf16>, %w: tensor<128x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<32x128xbf16> {
    %0 = "ttir.permute"(%w) <{permutation = array<i64: 1, 0>}> : (tensor<128x64xbf16>) -> tensor<64x128xbf16>
    %1 = "ttir.matmul"(%x, %0) : (tensor<32x64xbf16>, tensor<64x128xbf16>) -> tensor<32x128xbf16>
    return %1 : tensor<32x128xbf16>
  }
}
