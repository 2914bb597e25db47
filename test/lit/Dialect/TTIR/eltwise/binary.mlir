// RUN: ttmlir-opt --split-input-file %s | FileCheck %s
// RUN: ttmlir-opt --split-input-file %s | ttmlir-opt --split-input-file | FileCheck %s
// RUN: ttmlir-opt --split-input-file --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN
// TTIR binary ops: one chunk per op; each is parsed, printed, re-parsed and lowered on its own.

// CHECK-LABEL: func.func @add
// CHECK: %{{[0-9]+}} = "ttir.add"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.add"
// TTNN-SAME: #ttnn_layout
module {
  func.func @add(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.add"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @atan2
// CHECK: %{{[0-9]+}} = "ttir.atan2"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.atan2"
// TTNN-SAME: #ttnn_layout
module {
  func.func @atan2(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.atan2"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @bitwise_and
// CHECK: %{{[0-9]+}} = "ttir.bitwise_and"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
// TTNN: "ttnn.bitwise_and"
// TTNN-SAME: #ttnn_layout
module {
  func.func @bitwise_and(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttir.bitwise_and"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
}

// -----

// CHECK-LABEL: func.func @bitwise_or
// CHECK: %{{[0-9]+}} = "ttir.bitwise_or"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
// TTNN: "ttnn.bitwise_or"
// TTNN-SAME: #ttnn_layout
module {
  func.func @bitwise_or(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttir.bitwise_or"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
}

// -----

// CHECK-LABEL: func.func @bitwise_xor
// CHECK: %{{[0-9]+}} = "ttir.bitwise_xor"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
// TTNN: "ttnn.bitwise_xor"
// TTNN-SAME: #ttnn_layout
module {
  func.func @bitwise_xor(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttir.bitwise_xor"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
}

// -----

// CHECK-LABEL: func.func @div
// CHECK: %{{[0-9]+}} = "ttir.div"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.divide"
// TTNN-SAME: #ttnn_layout
module {
  func.func @div(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.div"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @eq
// CHECK: %{{[0-9]+}} = "ttir.eq"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.eq"
// TTNN-SAME: #ttnn_layout
module {
  func.func @eq(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.eq"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @ge
// CHECK: %{{[0-9]+}} = "ttir.ge"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.ge"
// TTNN-SAME: #ttnn_layout
module {
  func.func @ge(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.ge"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @gt
// CHECK: %{{[0-9]+}} = "ttir.gt"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.gt"
// TTNN-SAME: #ttnn_layout
module {
  func.func @gt(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.gt"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @le
// CHECK: %{{[0-9]+}} = "ttir.le"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// le(a, b) is canonicalized to ge(b, a), as upstream does:
// TTNN: "ttnn.ge"(%arg1, %arg0)
// TTNN-SAME: #ttnn_layout
module {
  func.func @le(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.le"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @logical_and
// CHECK: %{{[0-9]+}} = "ttir.logical_and"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.logical_and"
// TTNN-SAME: #ttnn_layout
module {
  func.func @logical_and(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.logical_and"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @logical_left_shift
// CHECK: %{{[0-9]+}} = "ttir.logical_left_shift"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
// TTNN: "ttnn.logical_left_shift"
// TTNN-SAME: #ttnn_layout
module {
  func.func @logical_left_shift(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttir.logical_left_shift"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
}

// -----

// CHECK-LABEL: func.func @logical_or
// CHECK: %{{[0-9]+}} = "ttir.logical_or"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.logical_or"
// TTNN-SAME: #ttnn_layout
module {
  func.func @logical_or(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.logical_or"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @logical_right_shift
// CHECK: %{{[0-9]+}} = "ttir.logical_right_shift"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
// TTNN: "ttnn.logical_right_shift"
// TTNN-SAME: #ttnn_layout
module {
  func.func @logical_right_shift(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttir.logical_right_shift"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
}

// -----

// CHECK-LABEL: func.func @logical_xor
// CHECK: %{{[0-9]+}} = "ttir.logical_xor"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.logical_xor"
// TTNN-SAME: #ttnn_layout
module {
  func.func @logical_xor(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.logical_xor"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @lt
// CHECK: %{{[0-9]+}} = "ttir.lt"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// lt(a, b) is canonicalized to gt(b, a), as upstream does:
// TTNN: "ttnn.gt"(%arg1, %arg0)
// TTNN-SAME: #ttnn_layout
module {
  func.func @lt(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.lt"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @maximum
// CHECK: %{{[0-9]+}} = "ttir.maximum"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.maximum"
// TTNN-SAME: #ttnn_layout
module {
  func.func @maximum(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.maximum"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @minimum
// CHECK: %{{[0-9]+}} = "ttir.minimum"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.minimum"
// TTNN-SAME: #ttnn_layout
module {
  func.func @minimum(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.minimum"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @multiply
// CHECK: %{{[0-9]+}} = "ttir.multiply"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.multiply"
// TTNN-SAME: #ttnn_layout
module {
  func.func @multiply(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.multiply"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @ne
// CHECK: %{{[0-9]+}} = "ttir.ne"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.ne"
// TTNN-SAME: #ttnn_layout
module {
  func.func @ne(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.ne"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @pow
// CHECK: %{{[0-9]+}} = "ttir.pow"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.pow_tensor"
// TTNN-SAME: #ttnn_layout
module {
  func.func @pow(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.pow"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @remainder
// CHECK: %{{[0-9]+}} = "ttir.remainder"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.remainder"
// TTNN-SAME: #ttnn_layout
module {
  func.func @remainder(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.remainder"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @subtract
// CHECK: %{{[0-9]+}} = "ttir.subtract"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.subtract"
// TTNN-SAME: #ttnn_layout
module {
  func.func @subtract(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.subtract"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
