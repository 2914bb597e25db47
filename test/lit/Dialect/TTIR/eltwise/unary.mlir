// RUN: ttmlir-opt --split-input-file %s | FileCheck %s
// RUN: ttmlir-opt --split-input-file %s | ttmlir-opt --split-input-file | FileCheck %s
// RUN: ttmlir-opt --split-input-file --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN
// TTIR unary ops: one chunk per op; each is parsed, printed, re-parsed and lowered on its own.

// CHECK-LABEL: func.func @abs
// CHECK: %{{[0-9]+}} = "ttir.abs"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.abs"
// TTNN-SAME: #ttnn_layout
module {
  func.func @abs(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.abs"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @acos
// CHECK: %{{[0-9]+}} = "ttir.acos"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.acos"
// TTNN-SAME: #ttnn_layout
module {
  func.func @acos(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.acos"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @asin
// CHECK: %{{[0-9]+}} = "ttir.asin"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.asin"
// TTNN-SAME: #ttnn_layout
module {
  func.func @asin(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.asin"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @asinh
// CHECK: %{{[0-9]+}} = "ttir.asinh"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.asinh"
// TTNN-SAME: #ttnn_layout
module {
  func.func @asinh(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.asinh"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @atan
// CHECK: %{{[0-9]+}} = "ttir.atan"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.atan"
// TTNN-SAME: #ttnn_layout
module {
  func.func @atan(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.atan"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @bitwise_not
// CHECK: %{{[0-9]+}} = "ttir.bitwise_not"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.bitwise_not"
// TTNN-SAME: #ttnn_layout
module {
  func.func @bitwise_not(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.bitwise_not"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @cbrt
// CHECK: %{{[0-9]+}} = "ttir.cbrt"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.cbrt"
// TTNN-SAME: #ttnn_layout
module {
  func.func @cbrt(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.cbrt"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @ceil
// CHECK: %{{[0-9]+}} = "ttir.ceil"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.ceil"
// TTNN-SAME: #ttnn_layout
module {
  func.func @ceil(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.ceil"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @clamp_scalar
// CHECK: %{{[0-9]+}} = "ttir.clamp_scalar"(%arg0) <{max = 5.000000e+00 : f32, min = 1.000000e+00 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.clamp_scalar"
// TTNN-SAME: #ttnn_layout
module {
  func.func @clamp_scalar(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.clamp_scalar"(%arg0) <{max = 5.000000e+00 : f32, min = 1.000000e+00 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @cos
// CHECK: %{{[0-9]+}} = "ttir.cos"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.cos"
// TTNN-SAME: #ttnn_layout
module {
  func.func @cos(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.cos"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @erf
// CHECK: %{{[0-9]+}} = "ttir.erf"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.erf"
// TTNN-SAME: #ttnn_layout
module {
  func.func @erf(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.erf"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @erfc
// CHECK: %{{[0-9]+}} = "ttir.erfc"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.erfc"
// TTNN-SAME: #ttnn_layout
module {
  func.func @erfc(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.erfc"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @exp
// CHECK: %{{[0-9]+}} = "ttir.exp"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.exp"
// TTNN-SAME: #ttnn_layout
module {
  func.func @exp(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.exp"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @exp2
// CHECK: %{{[0-9]+}} = "ttir.exp2"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.exp2"
// TTNN-SAME: #ttnn_layout
module {
  func.func @exp2(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.exp2"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @expm1
// CHECK: %{{[0-9]+}} = "ttir.expm1"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.expm1"
// TTNN-SAME: #ttnn_layout
module {
  func.func @expm1(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.expm1"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @floor
// CHECK: %{{[0-9]+}} = "ttir.floor"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.floor"
// TTNN-SAME: #ttnn_layout
module {
  func.func @floor(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.floor"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @frac
// CHECK: %{{[0-9]+}} = "ttir.frac"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.frac"
// TTNN-SAME: #ttnn_layout
module {
  func.func @frac(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.frac"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @gelu
// CHECK: %{{[0-9]+}} = "ttir.gelu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.gelu"
// TTNN-SAME: #ttnn_layout
module {
  func.func @gelu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.gelu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @hardsigmoid
// CHECK: %{{[0-9]+}} = "ttir.hardsigmoid"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.hardsigmoid"
// TTNN-SAME: #ttnn_layout
module {
  func.func @hardsigmoid(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.hardsigmoid"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @isfinite
// CHECK: %{{[0-9]+}} = "ttir.isfinite"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.isfinite"
// TTNN-SAME: #ttnn_layout
module {
  func.func @isfinite(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.isfinite"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @leaky_relu
// CHECK: %{{[0-9]+}} = "ttir.leaky_relu"(%arg0) <{parameter = 0.00999999977 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.leaky_relu"
// TTNN-SAME: #ttnn_layout
module {
  func.func @leaky_relu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.leaky_relu"(%arg0) <{parameter = 0.00999999977 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @log
// CHECK: %{{[0-9]+}} = "ttir.log"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.log"
// TTNN-SAME: #ttnn_layout
module {
  func.func @log(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.log"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @log1p
// CHECK: %{{[0-9]+}} = "ttir.log1p"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.log1p"
// TTNN-SAME: #ttnn_layout
module {
  func.func @log1p(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.log1p"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @logical_not
// CHECK: %{{[0-9]+}} = "ttir.logical_not"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.logical_not"
// TTNN-SAME: #ttnn_layout
module {
  func.func @logical_not(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.logical_not"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @mish
// CHECK: %{{[0-9]+}} = "ttir.mish"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.mish"
// TTNN-SAME: #ttnn_layout
module {
  func.func @mish(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.mish"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @neg
// CHECK: %{{[0-9]+}} = "ttir.neg"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.neg"
// TTNN-SAME: #ttnn_layout
module {
  func.func @neg(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.neg"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @reciprocal
// CHECK: %{{[0-9]+}} = "ttir.reciprocal"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.reciprocal"
// TTNN-SAME: #ttnn_layout
module {
  func.func @reciprocal(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.reciprocal"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @relu
// CHECK: %{{[0-9]+}} = "ttir.relu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.relu"
// TTNN-SAME: #ttnn_layout
module {
  func.func @relu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.relu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @relu6
// CHECK: %{{[0-9]+}} = "ttir.relu6"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.relu6"
// TTNN-SAME: #ttnn_layout
module {
  func.func @relu6(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.relu6"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @rsqrt
// CHECK: %{{[0-9]+}} = "ttir.rsqrt"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.rsqrt"
// TTNN-SAME: #ttnn_layout
module {
  func.func @rsqrt(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.rsqrt"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @selu
// CHECK: %{{[0-9]+}} = "ttir.selu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.selu"
// TTNN-SAME: #ttnn_layout
module {
  func.func @selu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.selu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @sigmoid
// CHECK: %{{[0-9]+}} = "ttir.sigmoid"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.sigmoid"
// TTNN-SAME: #ttnn_layout
module {
  func.func @sigmoid(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.sigmoid"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @sign
// CHECK: %{{[0-9]+}} = "ttir.sign"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.sign"
// TTNN-SAME: #ttnn_layout
module {
  func.func @sign(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.sign"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @signbit
// CHECK: %{{[0-9]+}} = "ttir.signbit"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.signbit"
// TTNN-SAME: #ttnn_layout
module {
  func.func @signbit(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.signbit"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @silu
// CHECK: %{{[0-9]+}} = "ttir.silu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.silu"
// TTNN-SAME: #ttnn_layout
module {
  func.func @silu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.silu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @sin
// CHECK: %{{[0-9]+}} = "ttir.sin"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.sin"
// TTNN-SAME: #ttnn_layout
module {
  func.func @sin(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.sin"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @softsign
// CHECK: %{{[0-9]+}} = "ttir.softsign"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.softsign"
// TTNN-SAME: #ttnn_layout
module {
  func.func @softsign(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.softsign"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @sqrt
// CHECK: %{{[0-9]+}} = "ttir.sqrt"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.sqrt"
// TTNN-SAME: #ttnn_layout
module {
  func.func @sqrt(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.sqrt"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @square
// CHECK: %{{[0-9]+}} = "ttir.square"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.square"
// TTNN-SAME: #ttnn_layout
module {
  func.func @square(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.square"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @tan
// CHECK: %{{[0-9]+}} = "ttir.tan"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.tan"
// TTNN-SAME: #ttnn_layout
module {
  func.func @tan(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.tan"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @tanh
// CHECK: %{{[0-9]+}} = "ttir.tanh"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.tanh"
// TTNN-SAME: #ttnn_layout
module {
  func.func @tanh(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.tanh"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @trunc
// CHECK: %{{[0-9]+}} = "ttir.trunc"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.trunc"
// TTNN-SAME: #ttnn_layout
module {
  func.func @trunc(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.trunc"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @typecast
// CHECK: %{{[0-9]+}} = "ttir.typecast"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xbf16>
// TTNN: "ttnn.typecast"
// TTNN-SAME: #ttnn_layout
module {
  func.func @typecast(%arg0: tensor<64x128xf32>) -> tensor<64x128xbf16> {
    %0 = "ttir.typecast"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xbf16>
    return %0 : tensor<64x128xbf16>
  }
}
