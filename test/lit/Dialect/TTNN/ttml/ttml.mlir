// RUN: ttmlir-opt --ttir-to-ttnn-runtime-pipeline %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-runtime-pipeline %s | ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn
// ttnn.adamw updates its operands in place; the TTIR results become them. A rank-2 step runs on reshaped copies
// whose updated values are reshaped back (the reshape pair must not fold away).

// CHECK-LABEL: func.func @adamw_rank2
func.func @adamw_rank2(%p: tensor<64x64xf32>, %g: tensor<64x64xbf16>, %m: tensor<64x64xf32>, %v: tensor<64x64xf32>)
    -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  // CHECK: %[[P4:.*]] = "ttnn.reshape"(%arg0)
  // CHECK: "ttnn.adamw"(%[[P4]],
  // CHECK-SAME: -> ()
  // CHECK: %[[BACK:.*]] = "ttnn.reshape"(%[[P4]])
  // CHECK: return %[[BACK]],
  %0:3 = "ttir.adamw"(%p, %g, %m, %v) <{lr = 1.0e-02 : f32, beta1 = 0.9 : f32, beta2 = 0.99 : f32, beta1_pow = 0.9 : f32,
      beta2_pow = 0.99 : f32, epsilon = 1.0e-08 : f32, weight_decay = 0.0 : f32}>
      : (tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>, tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>)
  return %0#0, %0#1 : tensor<64x64xf32>, tensor<64x64xf32>
}

// f32 attention runs in bf16: the data is cast in and the gradients out; the log-sum-exp stays f32.
// CHECK-LABEL: func.func @sdpa_f32
func.func @sdpa_f32(%q: tensor<1x2x32x64xf32>, %g: tensor<1x2x32x64xf32>) -> (tensor<1x2x32x64xf32>, tensor<1x2x32x32xf32>) {
  // CHECK: %[[O:.*]], %[[LSE:.*]] = "ttnn.sdpa_fw"
  // CHECK-SAME: -> (tensor<1x2x32x64xbf16, {{.*}}>, tensor<1x2x32x32xf32,
  // CHECK: "ttnn.sdpa_bw"({{.*}}, %[[LSE]])
  // CHECK-SAME: -> (tensor<1x2x32x64xbf16
  // CHECK: "ttnn.typecast"
  %o, %lse = "ttir.sdpa_fw"(%q, %q, %q) <{return_intermediates = true}>
      : (tensor<1x2x32x64xf32>, tensor<1x2x32x64xf32>, tensor<1x2x32x64xf32>) -> (tensor<1x2x32x64xf32>, tensor<1x2x32x32xf32>)
  %dq, %dk, %dv = "ttir.sdpa_bw"(%g, %o, %q, %q, %q, %lse) <{mask_type = #ttcore.attention_mask_type<causal>}>
      : (tensor<1x2x32x64xf32>, tensor<1x2x32x64xf32>, tensor<1x2x32x64xf32>, tensor<1x2x32x64xf32>, tensor<1x2x32x64xf32>,
         tensor<1x2x32x32xf32>) -> (tensor<1x2x32x64xf32>, tensor<1x2x32x64xf32>, tensor<1x2x32x64xf32>)
  return %dq, %lse : tensor<1x2x32x64xf32>, tensor<1x2x32x32xf32>
}
