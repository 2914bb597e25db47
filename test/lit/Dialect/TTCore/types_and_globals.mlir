// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK: ttcore.global @kv = tensor<4x32xbf16> [0]
// CHECK: ttcore.get_global @kv : tensor<4x32xbf16>
// CHECK: "ttcore.optimization_barrier"(%arg0) : (tensor<4x32x!ttcore.tile<32x32, bfp_bf8>>) -> tensor<4x32x!ttcore.tile<32x32, bfp_bf8>>
module {
  ttcore.global @kv = tensor<4x32xbf16> [0]
  func.func @f(%arg0: tensor<4x32x!ttcore.tile<32x32, bfp_bf8>>) -> tensor<4x32xbf16> {
    %0 = ttcore.get_global @kv : tensor<4x32xbf16>
    %1 = "ttcore.optimization_barrier"(%arg0) : (tensor<4x32x!ttcore.tile<32x32, bfp_bf8>>) -> tensor<4x32x!ttcore.tile<32x32, bfp_bf8>>
    return %0 : tensor<4x32xbf16>
  }
}
