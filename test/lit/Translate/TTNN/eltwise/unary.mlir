// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s
// Unary ops to a flatbuffer: every op in one module, a program each; the binary's tables name each program's inputs,
// outputs and ops.

// CHECK-LABEL: "inputs": [
// CHECK: "program": "abs"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "acos"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "asin"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "asinh"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "atan"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "bitwise_not"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "cbrt"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "ceil"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "clamp_scalar"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "cos"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "erf"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "erfc"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "exp"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "exp2"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "expm1"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "floor"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "frac"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "gelu"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "hardsigmoid"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "isfinite"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "leaky_relu"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "log"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "log1p"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "logical_not"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "mish"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "neg"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "reciprocal"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "relu"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "relu6"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "rsqrt"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "selu"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "sigmoid"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "sign"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "signbit"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "silu"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "sin"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "softsign"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "sqrt"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "square"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "tan"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "tanh"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "trunc"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "typecast"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "program": "abs"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "acos"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "asin"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "asinh"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "atan"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "bitwise_not"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "cbrt"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "ceil"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "clamp_scalar"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "cos"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "erf"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "erfc"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "exp"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "exp2"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "expm1"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "floor"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "frac"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "gelu"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "hardsigmoid"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "isfinite"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "leaky_relu"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "log"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "log1p"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "logical_not"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "mish"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "neg"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "reciprocal"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "relu"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "relu6"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "rsqrt"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "selu"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "sigmoid"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "sign"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "signbit"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "silu"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "sin"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "softsign"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "sqrt"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "square"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "tan"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "tanh"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "trunc"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "typecast"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "bf16"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "program": "abs"
// CHECK: "ttnn.abs": 1
// CHECK: "program": "acos"
// CHECK: "ttnn.acos": 1
// CHECK: "program": "asin"
// CHECK: "ttnn.asin": 1
// CHECK: "program": "asinh"
// CHECK: "ttnn.asinh": 1
// CHECK: "program": "atan"
// CHECK: "ttnn.atan": 1
// CHECK: "program": "bitwise_not"
// CHECK: "ttnn.bitwise_not": 1
// CHECK: "program": "cbrt"
// CHECK: "ttnn.cbrt": 1
// CHECK: "program": "ceil"
// CHECK: "ttnn.ceil": 1
// CHECK: "program": "clamp_scalar"
// CHECK: "ttnn.clamp_scalar": 1
// CHECK: "program": "cos"
// CHECK: "ttnn.cos": 1
// CHECK: "program": "erf"
// CHECK: "ttnn.erf": 1
// CHECK: "program": "erfc"
// CHECK: "ttnn.erfc": 1
// CHECK: "program": "exp"
// CHECK: "ttnn.exp": 1
// CHECK: "program": "exp2"
// CHECK: "ttnn.exp2": 1
// CHECK: "program": "expm1"
// CHECK: "ttnn.expm1": 1
// CHECK: "program": "floor"
// CHECK: "ttnn.floor": 1
// CHECK: "program": "frac"
// CHECK: "ttnn.frac": 1
// CHECK: "program": "gelu"
// CHECK: "ttnn.gelu": 1
// CHECK: "program": "hardsigmoid"
// CHECK: "ttnn.hardsigmoid": 1
// CHECK: "program": "isfinite"
// CHECK: "ttnn.isfinite": 1
// CHECK: "program": "leaky_relu"
// CHECK: "ttnn.leaky_relu": 1
// CHECK: "program": "log"
// CHECK: "ttnn.log": 1
// CHECK: "program": "log1p"
// CHECK: "ttnn.log1p": 1
// CHECK: "program": "logical_not"
// CHECK: "ttnn.logical_not": 1
// CHECK: "program": "mish"
// CHECK: "ttnn.mish": 1
// CHECK: "program": "neg"
// CHECK: "ttnn.neg": 1
// CHECK: "program": "reciprocal"
// CHECK: "ttnn.reciprocal": 1
// CHECK: "program": "relu"
// CHECK: "ttnn.relu": 1
// CHECK: "program": "relu6"
// CHECK: "ttnn.relu6": 1
// CHECK: "program": "rsqrt"
// CHECK: "ttnn.rsqrt": 1
// CHECK: "program": "selu"
// CHECK: "ttnn.selu": 1
// CHECK: "program": "sigmoid"
// CHECK: "ttnn.sigmoid": 1
// CHECK: "program": "sign"
// CHECK: "ttnn.sign": 1
// CHECK: "program": "signbit"
// CHECK: "ttnn.signbit": 1
// CHECK: "program": "silu"
// CHECK: "ttnn.silu": 1
// CHECK: "program": "sin"
// CHECK: "ttnn.sin": 1
// CHECK: "program": "softsign"
// CHECK: "ttnn.softsign": 1
// CHECK: "program": "sqrt"
// CHECK: "ttnn.sqrt": 1
// CHECK: "program": "square"
// CHECK: "ttnn.square": 1
// CHECK: "program": "tan"
// CHECK: "ttnn.tan": 1
// CHECK: "program": "tanh"
// CHECK: "ttnn.tanh": 1
// CHECK: "program": "trunc"
// CHECK: "ttnn.trunc": 1
// CHECK: "program": "typecast"
// CHECK: "ttnn.typecast": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @abs(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.abs"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @acos(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.acos"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @asin(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.asin"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @asinh(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.asinh"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @atan(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.atan"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @bitwise_not(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.bitwise_not"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @cbrt(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.cbrt"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @ceil(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.ceil"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @clamp_scalar(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.clamp_scalar"(%arg0) <{max = 5.000000e+00 : f32, min = 1.000000e+00 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @cos(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.cos"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @erf(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.erf"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @erfc(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.erfc"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @exp(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.exp"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @exp2(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.exp2"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @expm1(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.expm1"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @floor(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.floor"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @frac(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.frac"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @gelu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.gelu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @hardsigmoid(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.hardsigmoid"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @isfinite(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.isfinite"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @leaky_relu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.leaky_relu"(%arg0) <{parameter = 0.00999999977 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @log(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.log"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @log1p(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.log1p"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @logical_not(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.logical_not"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @mish(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.mish"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @neg(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.neg"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @reciprocal(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.reciprocal"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @relu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.relu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @relu6(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.relu6"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @rsqrt(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.rsqrt"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @selu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.selu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @sigmoid(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.sigmoid"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @sign(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.sign"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @signbit(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.signbit"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @silu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.silu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @sin(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.sin"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @softsign(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.softsign"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @sqrt(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.sqrt"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @square(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.square"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @tan(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.tan"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @tanh(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.tanh"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @trunc(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.trunc"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @typecast(%arg0: tensor<64x128xf32>) -> tensor<64x128xbf16> {
    %0 = "ttir.typecast"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xbf16>
    return %0 : tensor<64x128xbf16>
  }
}
