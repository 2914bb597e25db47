// RUN: ttmlir-opt --ttir-to-ttir-decomposition %s | FileCheck %s
// ttml's kernels take rank-4 tensors: adamw, sdpa_fw and sdpa_bw of other ranks run between reshapes.

// CHECK-LABEL: func.func @adamw_rank3
func.func @adamw_rank3(%p: tensor<2x32x64xf32>, %g: tensor<2x32x64xf32>, %m: tensor<2x32x64xf32>,
                       %v: tensor<2x32x64xf32>) -> (tensor<2x32x64xf32>, tensor<2x32x64xf32>) {
  // CHECK-COUNT-4: "ttir.reshape"(%arg{{[0-3]}}) <{shape = [1 : i32, 2 : i32, 32 : i32, 64 : i32]}>
  // CHECK: "ttir.adamw"
  // CHECK-SAME: -> (tensor<1x2x32x64xf32>, tensor<1x2x32x64xf32>, tensor<1x2x32x64xf32>)
  // CHECK-COUNT-3: "ttir.reshape"({{.*}}) <{shape = [2 : i32, 32 : i32, 64 : i32]}>
  %0:3 = "ttir.adamw"(%p, %g, %m, %v) <{lr = 1.0e-02 : f32, beta1 = 0.9 : f32, beta2 = 0.99 : f32,
      beta1_pow = 0.9 : f32, beta2_pow = 0.99 : f32, epsilon = 1.0e-08 : f32, weight_decay = 0.0 : f32}>
      : (tensor<2x32x64xf32>, tensor<2x32x64xf32>, tensor<2x32x64xf32>, tensor<2x32x64xf32>)
      -> (tensor<2x32x64xf32>, tensor<2x32x64xf32>, tensor<2x32x64xf32>)
  return %0#0, %0#2 : tensor<2x32x64xf32>, tensor<2x32x64xf32>
}

// CHECK-LABEL: func.func @sdpa_rank2
func.func @sdpa_rank2(%q: tensor<32x64xbf16>, %k: tensor<32x64xbf16>, %v: tensor<32x64xbf16>, %g: tensor<32x64xbf16>)
    -> (tensor<32x64xbf16>, tensor<32x64xbf16>) {
  // CHECK: "ttir.sdpa_fw"
  // CHECK-SAME: -> (tensor<1x1x32x64xbf16>, tensor<1x1x32x32xf32>)
  // CHECK: "ttir.sdpa_bw"
  // CHECK-SAME: -> (tensor<1x1x32x64xbf16>, tensor<1x1x32x64xbf16>, tensor<1x1x32x64xbf16>)
  %o, %lse = "ttir.sdpa_fw"(%q, %k, %v) <{mask_type = #ttcore.attention_mask_type<none>, return_intermediates = true}>
      : (tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>) -> (tensor<32x64xbf16>, tensor<32x32xf32>)
  %dq, %dk, %dv = "ttir.sdpa_bw"(%g, %o, %q, %k, %v, %lse) <{mask_type = #ttcore.attention_mask_type<none>}>
      : (tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>,
         tensor<32x32xf32>) -> (tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>)
  return %o, %dk : tensor<32x64xbf16>, tensor<32x64xbf16>
}
