// RUN: ttmlir-opt --ttir-to-ttnn-common-pipeline -o %t.mlir %s
// RUN: ttmlir-opt --ttnn-common-to-emitc-pipeline -o %t2.mlir %t.mlir
// RUN: ttmlir-translate --mlir-to-cpp %t2.mlir | FileCheck %s
// ttml's fused ops are calls of ttml::metal, in its argument order.

// CHECK-LABEL: amsgrad_step
func.func @amsgrad_step(%p: tensor<1x1x32x32xbf16>) -> tensor<1x1x32x32xbf16> {
  // CHECK: ttml::metal::adamw(v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}, 0.0099999{{[0-9]+}}f,
  // CHECK-SAME: ::ttml::metal::StochasticRounding::Enabled);
  %0:4 = "ttir.adamw"(%p, %p, %p, %p, %p) <{lr = 1.0e-02 : f32, beta1 = 0.9 : f32, beta2 = 0.99 : f32, beta1_pow = 0.9 : f32,
      beta2_pow = 0.99 : f32, epsilon = 1.0e-08 : f32, weight_decay = 0.0 : f32, stochastic_rounding = true}>
      : (tensor<1x1x32x32xbf16>, tensor<1x1x32x32xbf16>, tensor<1x1x32x32xbf16>, tensor<1x1x32x32xbf16>, tensor<1x1x32x32xbf16>)
      -> (tensor<1x1x32x32xbf16>, tensor<1x1x32x32xbf16>, tensor<1x1x32x32xbf16>, tensor<1x1x32x32xbf16>)
  return %0#3 : tensor<1x1x32x32xbf16>
}

// CHECK-LABEL: attention
func.func @attention(%q: tensor<1x2x32x64xbf16>, %m: tensor<1x1x32x32xbf16>) -> tensor<1x2x32x64xbf16> {
  // CHECK: ::std::vector<::std::optional<::ttnn::Tensor>> [[FW:v[0-9]+]] = ttml::metal::sdpa_fw({{.*}}, ::ttml::metal::AttentionMaskType::Arbitrary, v{{[0-9]+}}, 0.0f, true);
  // CHECK: = [[FW]][0];
  // CHECK: util_get_optional_value(
  // CHECK: ttml::metal::sdpa_bw({{.*}}, ::ttml::metal::AttentionMaskType::None, ::std::nullopt, 0.0f);
  // CHECK: ::std::get<1>
  %o, %lse = "ttir.sdpa_fw"(%q, %q, %q, %m) <{mask_type = #ttcore.attention_mask_type<arbitrary>, return_intermediates = true}>
      : (tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x1x32x32xbf16>) -> (tensor<1x2x32x64xbf16>, tensor<1x2x32x32xf32>)
  %dq, %dk, %dv = "ttir.sdpa_bw"(%q, %o, %q, %q, %q, %lse) <{mask_type = #ttcore.attention_mask_type<none>}>
      : (tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>,
         tensor<1x2x32x32xf32>) -> (tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>)
  return %dk : tensor<1x2x32x64xbf16>
}
