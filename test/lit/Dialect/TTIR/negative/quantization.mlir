// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s
// The quantize family's rules, worded as upstream's verifiers word them.

func.func @float_input(%arg0: tensor<4x32xi32>) -> tensor<4x32x!quant.uniform<i32:f32, 0.1>> {
  // expected-error @+1 {{'ttir.quantize' op Input element type must be float, but got 'i32'}}
  %0 = "ttir.quantize"(%arg0) : (tensor<4x32xi32>) -> tensor<4x32x!quant.uniform<i32:f32, 0.1>>
  return %0 : tensor<4x32x!quant.uniform<i32:f32, 0.1>>
}

// -----
func.func @shape(%arg0: tensor<4x32x!quant.uniform<i32:f32, 0.1>>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'ttir.dequantize' op Output tensor shape (4,16) must match the inferred shape: (4,32)}}
  %0 = "ttir.dequantize"(%arg0) : (tensor<4x32x!quant.uniform<i32:f32, 0.1>>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----
func.func @mixed(%arg0: tensor<2x3x!quant.uniform<i32:f32, 0.1>>, %s: tensor<1xf32>, %z: tensor<1xsi32>) -> tensor<2x3x!quant.uniform<i32:f32:1, {0.1, 0.2, 0.3}>> {
  // expected-error @+1 {{'ttir.requantize_unrolled' op Input and output element types must both be per-axis or both be per-tensor quantized types, but got '!quant.uniform<i32:f32, 1.000000e-01>' and '!quant.uniform<i32:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01}>'}}
  %0 = "ttir.requantize_unrolled"(%arg0, %s, %z, %s, %z) : (tensor<2x3x!quant.uniform<i32:f32, 0.1>>, tensor<1xf32>, tensor<1xsi32>, tensor<1xf32>, tensor<1xsi32>) -> tensor<2x3x!quant.uniform<i32:f32:1, {0.1, 0.2, 0.3}>>
  return %0 : tensor<2x3x!quant.uniform<i32:f32:1, {0.1, 0.2, 0.3}>>
}

// -----
func.func @scales(%arg0: tensor<2x4xf32>, %s: tensor<3xf32>, %z: tensor<3xsi32>) -> tensor<2x4x!quant.uniform<i32:f32:1, {0.1, 0.2, 0.3}>> {
  // expected-error @+1 {{'ttir.quantize_unrolled' op Number of scales (3) does not match the size of the quantized axis (4)}}
  %0 = "ttir.quantize_unrolled"(%arg0, %s, %z) <{axis = 1 : i32}> : (tensor<2x4xf32>, tensor<3xf32>, tensor<3xsi32>) -> tensor<2x4x!quant.uniform<i32:f32:1, {0.1, 0.2, 0.3}>>
  return %0 : tensor<2x4x!quant.uniform<i32:f32:1, {0.1, 0.2, 0.3}>>
}

// -----
func.func @axis(%arg0: tensor<2x3xf32>, %s: tensor<3xf32>, %z: tensor<3xsi32>) -> tensor<2x3x!quant.uniform<i32:f32:1, {0.1, 0.2, 0.3}>> {
  // expected-error @+1 {{'ttir.quantize_unrolled' op Axis value 2 is out of the range [0, 2) for the input tensor of rank 2}}
  %0 = "ttir.quantize_unrolled"(%arg0, %s, %z) <{axis = 2 : i32}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xsi32>) -> tensor<2x3x!quant.uniform<i32:f32:1, {0.1, 0.2, 0.3}>>
  return %0 : tensor<2x3x!quant.uniform<i32:f32:1, {0.1, 0.2, 0.3}>>
}

// -----
func.func @zero_point(%arg0: tensor<2x3xf32>, %s: tensor<1xf32>, %z: tensor<1xsi32>) -> tensor<2x3x!quant.uniform<i8<-10:10>:f32, 0.5:20>> {
  // expected-error @+1 {{'ttir.quantize_unrolled' op Zero point 20 is out of the range for storage type 'i8'}}
  %0 = "ttir.quantize_unrolled"(%arg0, %s, %z) : (tensor<2x3xf32>, tensor<1xf32>, tensor<1xsi32>) -> tensor<2x3x!quant.uniform<i8<-10:10>:f32, 0.5:20>>
  return %0 : tensor<2x3x!quant.uniform<i8<-10:10>:f32, 0.5:20>>
}

// -----
// expected-error @+1 {{illegal storage type prefix}}
func.func @storage(%arg0: tensor<2x!quant.uniform<f8:f32, 0.5>>) {
  return
}
