// RUN: ttmlir-opt --split-input-file %s | FileCheck %s
// RUN: ttmlir-opt --split-input-file %s | ttmlir-opt --split-input-file | FileCheck %s
// TTNN binary ops: one chunk per op; each is parsed, printed, re-parsed and lowered on its own.

// CHECK-LABEL: func.func @add
// CHECK: %{{[0-9]+}} = "ttnn.add"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @add(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.add"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @atan2
// CHECK: %{{[0-9]+}} = "ttnn.atan2"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @atan2(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.atan2"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @bitwise_and
// CHECK: %{{[0-9]+}} = "ttnn.bitwise_and"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
module {
  func.func @bitwise_and(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttnn.bitwise_and"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
}

// -----

// CHECK-LABEL: func.func @bitwise_or
// CHECK: %{{[0-9]+}} = "ttnn.bitwise_or"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
module {
  func.func @bitwise_or(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttnn.bitwise_or"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
}

// -----

// CHECK-LABEL: func.func @bitwise_xor
// CHECK: %{{[0-9]+}} = "ttnn.bitwise_xor"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
module {
  func.func @bitwise_xor(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttnn.bitwise_xor"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
}

// -----

// CHECK-LABEL: func.func @divide
// CHECK: %{{[0-9]+}} = "ttnn.divide"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @divide(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.divide"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @eq
// CHECK: %{{[0-9]+}} = "ttnn.eq"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @eq(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.eq"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @ge
// CHECK: %{{[0-9]+}} = "ttnn.ge"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @ge(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.ge"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @gt
// CHECK: %{{[0-9]+}} = "ttnn.gt"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @gt(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.gt"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @le
// CHECK: %{{[0-9]+}} = "ttnn.le"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @le(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.le"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @logical_and
// CHECK: %{{[0-9]+}} = "ttnn.logical_and"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @logical_and(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.logical_and"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @logical_left_shift
// CHECK: %{{[0-9]+}} = "ttnn.logical_left_shift"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
module {
  func.func @logical_left_shift(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttnn.logical_left_shift"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
}

// -----

// CHECK-LABEL: func.func @logical_or
// CHECK: %{{[0-9]+}} = "ttnn.logical_or"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @logical_or(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.logical_or"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @logical_right_shift
// CHECK: %{{[0-9]+}} = "ttnn.logical_right_shift"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
module {
  func.func @logical_right_shift(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttnn.logical_right_shift"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
}

// -----

// CHECK-LABEL: func.func @logical_xor
// CHECK: %{{[0-9]+}} = "ttnn.logical_xor"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @logical_xor(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.logical_xor"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @lt
// CHECK: %{{[0-9]+}} = "ttnn.lt"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @lt(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.lt"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @maximum
// CHECK: %{{[0-9]+}} = "ttnn.maximum"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @maximum(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.maximum"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @minimum
// CHECK: %{{[0-9]+}} = "ttnn.minimum"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @minimum(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.minimum"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @multiply
// CHECK: %{{[0-9]+}} = "ttnn.multiply"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @multiply(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.multiply"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @ne
// CHECK: %{{[0-9]+}} = "ttnn.ne"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @ne(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.ne"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @pow_tensor
// CHECK: %{{[0-9]+}} = "ttnn.pow_tensor"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @pow_tensor(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.pow_tensor"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @remainder
// CHECK: %{{[0-9]+}} = "ttnn.remainder"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @remainder(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.remainder"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @subtract
// CHECK: %{{[0-9]+}} = "ttnn.subtract"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
module {
  func.func @subtract(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.subtract"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
