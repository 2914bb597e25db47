// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttir-decomposition %s | FileCheck %s --check-prefix=UNROLLED
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN
// !quant.uniform types print as MLIR prints them (scales as %e, zero points only when not 0, storage ranges only
// when narrower than the storage type); the decomposition passes their parameters as constant operands.

// CHECK-LABEL: func.func @per_tensor
// CHECK: "ttir.quantize"(%arg0) : (tensor<4x32xf32>) -> tensor<4x32x!quant.uniform<i32:f32, 1.000000e-01>>
// CHECK: "ttir.requantize"({{.*}}) -> tensor<4x32x!quant.uniform<i32:f32, 2.500000e-01:-3>>
// CHECK: "ttir.dequantize"({{.*}}) -> tensor<4x32xf32>
// UNROLLED-LABEL: func.func @per_tensor
// UNROLLED: %[[S:.*]] = "ttir.constant"() <{value = dense<1.000000e-01> : tensor<1xf32>}>
// UNROLLED: %[[Z:.*]] = "ttir.constant"() <{value = dense<0> : tensor<1xsi32>}>
// UNROLLED: "ttir.quantize_unrolled"(%arg0, %[[S]], %[[Z]])
// UNROLLED: "ttir.requantize_unrolled"
// UNROLLED-NOT: axis
// UNROLLED: "ttir.dequantize_unrolled"
// The scales and zero points are const-eval results, made once before the forward function runs.
// TTNN: func.func private @per_tensor_const_eval_
// TTNN: "ttnn.full"{{.*}}fill_value = 1.000000e-01 : f32
// TTNN-LABEL: func.func @per_tensor(
// TTNN: "ttnn.quantize"{{.*}}<{output_dtype = #ttcore.supportedDataTypes<si32>}>
// TTNN-SAME: -> tensor<4x32x!quant.uniform<i32:f32, 1.000000e-01>, #ttnn_layout
// TTNN: "ttnn.requantize"
// TTNN: "ttnn.dequantize"{{.*}}<{output_dtype = #ttcore.supportedDataTypes<f32>}>
func.func @per_tensor(%arg0: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %0 = "ttir.quantize"(%arg0) : (tensor<4x32xf32>) -> tensor<4x32x!quant.uniform<i32:f32, 0.1>>
  %1 = "ttir.requantize"(%0) : (tensor<4x32x!quant.uniform<i32:f32, 0.1>>) -> tensor<4x32x!quant.uniform<i32:f32, 0.25:-3>>
  %2 = "ttir.dequantize"(%1) : (tensor<4x32x!quant.uniform<i32:f32, 0.25:-3>>) -> tensor<4x32xf32>
  return %2 : tensor<4x32xf32>
}

// CHECK-LABEL: func.func @per_axis
// CHECK-SAME: tensor<2x3x!quant.uniform<i8<-127:127>:f32:1, {1.000000e-01:5,2.000000e-01,3.000000e-01:-5}>>
// UNROLLED-LABEL: func.func @per_axis
// UNROLLED: "ttir.constant"() <{value = dense<[1.000000e-01, 2.000000e-01, 3.000000e-01]> : tensor<3xf32>}>
// UNROLLED: "ttir.constant"() <{value = dense<[5, 0, -5]> : tensor<3xsi32>}>
// UNROLLED: "ttir.dequantize_unrolled"{{.*}}<{axis = 1 : i32}>
// TTNN-LABEL: func.func @per_axis
// TTNN: "ttnn.dequantize"{{.*}}<{axis = 1 : i32, output_dtype = #ttcore.supportedDataTypes<f32>}>
func.func @per_axis(%arg0: tensor<2x3x!quant.uniform<i8<-127:127>:f32:1, {0.1:5, 0.2, 0.3:-5}>>) -> tensor<2x3xf32> {
  %0 = "ttir.dequantize"(%arg0) : (tensor<2x3x!quant.uniform<i8<-127:127>:f32:1, {0.1:5, 0.2, 0.3:-5}>>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
