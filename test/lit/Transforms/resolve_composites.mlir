// RUN: ttmlir-opt --ttnn-resolve-composites %s | FileCheck %s
// RUN: ttmlir-golden %s | FileCheck %s --check-prefix=GOLDEN

// A composite becomes its decomposition's ops, inlined where it stood; the decomposition, used by no one
// else, is erased. Its golden is its decomposition's.
// CHECK-LABEL: func.func @gated
// CHECK: %[[S:.*]] = "ttir.sigmoid"(%arg1)
// CHECK: %[[M:.*]] = "ttir.multiply"(%arg0, %[[S]])
// CHECK-NOT: ttcore.composite
// CHECK: return %[[M]]
// CHECK-NOT: @gate_decomposition
// GOLDEN: @gated: {{.*}} 1 outputs, worst output PCC 1.000000: PASS
func.func @gated(%arg0: tensor<32x64xf32>, %arg1: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %0 = "ttcore.composite"(%arg0, %arg1) <{composite_name = "gate", decomposition = @gate_decomposition, composite_attributes = {}}> : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
}
func.func private @gate_decomposition(%arg0: tensor<32x64xf32>, %arg1: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %0 = "ttir.sigmoid"(%arg1) : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %1 = "ttir.multiply"(%arg0, %0) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %1 : tensor<32x64xf32>
}
