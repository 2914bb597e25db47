// RUN: ttmlir-opt --split-input-file %s | FileCheck %s
// RUN: ttmlir-opt --split-input-file %s | ttmlir-opt --split-input-file | FileCheck %s
// TTNN unary ops: one chunk per op; each is parsed, printed, re-parsed and lowered on its own.

// CHECK-LABEL: func.func @abs
// CHECK: %{{[0-9]+}} = "ttnn.abs"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @abs(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.abs"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @acos
// CHECK: %{{[0-9]+}} = "ttnn.acos"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @acos(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.acos"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @asin
// CHECK: %{{[0-9]+}} = "ttnn.asin"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @asin(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.asin"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @asinh
// CHECK: %{{[0-9]+}} = "ttnn.asinh"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @asinh(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.asinh"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @atan
// CHECK: %{{[0-9]+}} = "ttnn.atan"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @atan(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.atan"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @bitwise_not
// CHECK: %{{[0-9]+}} = "ttnn.bitwise_not"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @bitwise_not(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.bitwise_not"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @cbrt
// CHECK: %{{[0-9]+}} = "ttnn.cbrt"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @cbrt(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.cbrt"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @ceil
// CHECK: %{{[0-9]+}} = "ttnn.ceil"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @ceil(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.ceil"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @clamp_scalar
// CHECK: %{{[0-9]+}} = "ttnn.clamp_scalar"(%arg0) <{max = 6.000000e+00 : f32, min = 0.000000e+00 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @clamp_scalar(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.clamp_scalar"(%arg0) <{max = 6.000000e+00 : f32, min = 0.000000e+00 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @cos
// CHECK: %{{[0-9]+}} = "ttnn.cos"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @cos(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.cos"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @erf
// CHECK: %{{[0-9]+}} = "ttnn.erf"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @erf(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.erf"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @erfc
// CHECK: %{{[0-9]+}} = "ttnn.erfc"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @erfc(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.erfc"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @exp
// CHECK: %{{[0-9]+}} = "ttnn.exp"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @exp(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.exp"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @exp2
// CHECK: %{{[0-9]+}} = "ttnn.exp2"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @exp2(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.exp2"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @expm1
// CHECK: %{{[0-9]+}} = "ttnn.expm1"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @expm1(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.expm1"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @floor
// CHECK: %{{[0-9]+}} = "ttnn.floor"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @floor(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.floor"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @frac
// CHECK: %{{[0-9]+}} = "ttnn.frac"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @frac(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.frac"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @gelu
// CHECK: %{{[0-9]+}} = "ttnn.gelu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @gelu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.gelu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @hardsigmoid
// CHECK: %{{[0-9]+}} = "ttnn.hardsigmoid"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @hardsigmoid(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.hardsigmoid"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @isfinite
// CHECK: %{{[0-9]+}} = "ttnn.isfinite"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @isfinite(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.isfinite"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @leaky_relu
// CHECK: %{{[0-9]+}} = "ttnn.leaky_relu"(%arg0) <{parameter = 0.00999999977 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @leaky_relu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.leaky_relu"(%arg0) <{parameter = 0.00999999977 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @log
// CHECK: %{{[0-9]+}} = "ttnn.log"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @log(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.log"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @log1p
// CHECK: %{{[0-9]+}} = "ttnn.log1p"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @log1p(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.log1p"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @logical_not
// CHECK: %{{[0-9]+}} = "ttnn.logical_not"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @logical_not(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.logical_not"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @mish
// CHECK: %{{[0-9]+}} = "ttnn.mish"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @mish(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.mish"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @neg
// CHECK: %{{[0-9]+}} = "ttnn.neg"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @neg(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.neg"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @reciprocal
// CHECK: %{{[0-9]+}} = "ttnn.reciprocal"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @reciprocal(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.reciprocal"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @relu
// CHECK: %{{[0-9]+}} = "ttnn.relu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @relu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.relu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @relu6
// CHECK: %{{[0-9]+}} = "ttnn.relu6"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @relu6(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.relu6"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @rsqrt
// CHECK: %{{[0-9]+}} = "ttnn.rsqrt"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @rsqrt(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.rsqrt"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @selu
// CHECK: %{{[0-9]+}} = "ttnn.selu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @selu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.selu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @sigmoid
// CHECK: %{{[0-9]+}} = "ttnn.sigmoid"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @sigmoid(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.sigmoid"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @sign
// CHECK: %{{[0-9]+}} = "ttnn.sign"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @sign(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.sign"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @signbit
// CHECK: %{{[0-9]+}} = "ttnn.signbit"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @signbit(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.signbit"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @silu
// CHECK: %{{[0-9]+}} = "ttnn.silu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @silu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.silu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @sin
// CHECK: %{{[0-9]+}} = "ttnn.sin"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @sin(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.sin"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @softsign
// CHECK: %{{[0-9]+}} = "ttnn.softsign"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @softsign(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.softsign"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @sqrt
// CHECK: %{{[0-9]+}} = "ttnn.sqrt"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @sqrt(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.sqrt"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @square
// CHECK: %{{[0-9]+}} = "ttnn.square"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @square(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.square"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @tan
// CHECK: %{{[0-9]+}} = "ttnn.tan"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @tan(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.tan"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @tanh
// CHECK: %{{[0-9]+}} = "ttnn.tanh"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @tanh(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.tanh"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @trunc
// CHECK: %{{[0-9]+}} = "ttnn.trunc"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @trunc(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.trunc"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
