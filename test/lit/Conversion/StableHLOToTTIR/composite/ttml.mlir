// REQUIRES: stablehlo
// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline %s | FileCheck %s
// tt-train's composites (tenstorrent.adamw, sdpa_fw, sdpa_bw) become ttml's TTIR ops; a composite whose operands
// disagree with its mask_type keeps its decomposition.

module @ttml {
  // CHECK-LABEL: func.func @step
  func.func @step(%p: tensor<16x32xf32>, %g: tensor<16x32xf32>, %m: tensor<16x32xf32>, %v: tensor<16x32xf32>) -> tensor<16x32xf32> {
    // CHECK: "ttir.adamw"(%arg0, %arg1, %arg2, %arg3) <{beta1 = 0.899999976 : f32, beta1_pow = 7.290000e-01 : f32, beta2 = 9.990000e-01 : f32, beta2_pow = 9.970030e-01 : f32, epsilon = 9.99999993E-9 : f32, lr = 5.000000e-02 : f32, stochastic_rounding = false, weight_decay = 0.000000e+00 : f32}>
    %0:3 = stablehlo.composite "tenstorrent.adamw" %p, %g, %m, %v {composite_attributes = {lr = 5.0e-02 : f64, beta1 = 0.9 : f32,
        beta2 = 0.999 : f32, beta1_pow = 0.729 : f32, beta2_pow = 0.997003 : f32, epsilon = 1.0e-08 : f32, weight_decay = 0.0 : f32},
        decomposition = @step_impl} : (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>)
        -> (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>)
    return %0#0 : tensor<16x32xf32>
  }
  func.func private @step_impl(%p: tensor<16x32xf32>, %g: tensor<16x32xf32>, %m: tensor<16x32xf32>, %v: tensor<16x32xf32>)
      -> (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>) {
    return %p, %m, %v : tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>
  }

  // CHECK-LABEL: func.func @attention
  func.func @attention(%q: tensor<1x2x32x64xbf16>, %g: tensor<1x2x32x64xbf16>) -> tensor<1x2x32x64xbf16> {
    // CHECK: %[[O:.*]], %[[L:.*]] = "ttir.sdpa_fw"(%arg0, %arg0, %arg0) <{dropout_probability = 0.000000e+00 : f32, mask_type = #ttcore.attention_mask_type<none>, return_intermediates = true}>
    // CHECK: "ttir.sdpa_bw"(%arg1, %[[O]], %arg0, %arg0, %arg0, %[[L]]) <{dropout_probability = 0.000000e+00 : f32, mask_type = #ttcore.attention_mask_type<causal>}>
    %o:2 = stablehlo.composite "tenstorrent.sdpa_fw" %q, %q, %q {composite_attributes = {mask_type = 0 : i32},
        decomposition = @fw_impl} : (tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>)
        -> (tensor<1x2x32x64xbf16>, tensor<1x2x32x32xf32>)
    %d:3 = stablehlo.composite "tenstorrent.sdpa_bw" %g, %o#0, %q, %q, %q, %o#1 {composite_attributes = {mask_type = 1 : i32},
        decomposition = @bw_impl} : (tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>,
        tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x32xf32>)
        -> (tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>)
    return %d#1 : tensor<1x2x32x64xbf16>
  }
  func.func private @fw_impl(%q: tensor<1x2x32x64xbf16>, %k: tensor<1x2x32x64xbf16>, %v: tensor<1x2x32x64xbf16>)
      -> (tensor<1x2x32x64xbf16>, tensor<1x2x32x32xf32>) {
    %0 = stablehlo.constant dense<0.0> : tensor<1x2x32x32xf32>
    return %v, %0 : tensor<1x2x32x64xbf16>, tensor<1x2x32x32xf32>
  }
  func.func private @bw_impl(%g: tensor<1x2x32x64xbf16>, %o: tensor<1x2x32x64xbf16>, %q: tensor<1x2x32x64xbf16>,
      %k: tensor<1x2x32x64xbf16>, %v: tensor<1x2x32x64xbf16>, %l: tensor<1x2x32x32xf32>)
      -> (tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>) {
    return %g, %g, %g : tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>
  }

  // An arbitrary mask_type without the mask operand is not ttml's op: the decomposition runs instead.
  // CHECK-LABEL: func.func @mask_missing
  // CHECK-NOT: ttir.sdpa_fw
  // CHECK: return %arg0
  func.func @mask_missing(%q: tensor<1x2x32x64xbf16>) -> tensor<1x2x32x64xbf16> {
    %0 = stablehlo.composite "tenstorrent.sdpa_fw" %q, %q, %q {composite_attributes = {mask_type = 2 : i32},
        decomposition = @plain_impl} : (tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>) -> tensor<1x2x32x64xbf16>
    return %0 : tensor<1x2x32x64xbf16>
  }
  func.func private @plain_impl(%q: tensor<1x2x32x64xbf16>, %k: tensor<1x2x32x64xbf16>, %v: tensor<1x2x32x64xbf16>) -> tensor<1x2x32x64xbf16> {
    return %q : tensor<1x2x32x64xbf16>
  }
}
