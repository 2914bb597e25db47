// RUN: ttmlir-opt --convert-ttir-to-linalg %s | FileCheck %s
// TOSA where it has the op; a linalg.generic over math/arith where it does not, broadcasting through its
// indexing maps; comparisons as TOSA booleans cast back to the result type.

// CHECK-DAG: #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:map[0-9]*]] = affine_map<(d0, d1) -> (0, d1)>

func.func @tosa_ops(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // CHECK-LABEL: func.func @tosa_ops
  // CHECK: %[[SHAPE:[0-9]+]] = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // CHECK: %[[ROW_B:[0-9]+]] = tosa.reshape %arg1, %[[SHAPE]] : (tensor<8xf32>, !tosa.shape<2>) -> tensor<1x8xf32>
  // CHECK: %[[SUM:[0-9]+]] = tosa.add %arg0, %[[ROW_B]] : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %0 = "ttir.add"(%a, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: tosa.exp %[[SUM]] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "ttir.exp"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

func.func @generic_ops(%a: tensor<4x8xf32>, %b: tensor<1x8xf32>) -> tensor<4x8xf32> {
  // CHECK-LABEL: func.func @generic_ops
  // CHECK: %[[INIT:[0-9]+]] = tensor.empty() : tensor<4x8xf32>
  // CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<1x8xf32>) outs(%[[INIT]] : tensor<4x8xf32>)
  // CHECK: arith.divf
  // CHECK: linalg.yield
  %0 = "ttir.div"(%a, %b) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.generic
  // CHECK: math.cbrt
  %1 = "ttir.cbrt"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

func.func @compare(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xbf16> {
  // CHECK-LABEL: func.func @compare
  // a < b is b > a
  // CHECK: %[[GT:[0-9]+]] = tosa.greater %arg1, %arg0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  // CHECK: tosa.cast %[[GT]] : (tensor<4x8xi1>) -> tensor<4x8xbf16>
  %0 = "ttir.lt"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

func.func @clamp_bf16(%a: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  // CHECK-LABEL: func.func @clamp_bf16
  // the bounds take the tensor's element type, as tosa.clamp requires
  // CHECK: tosa.clamp %arg0 {max_val = 1.000000e+00 : bf16, min_val = -1.000000e+00 : bf16}
  %0 = "ttir.clamp_scalar"(%a) <{min = -1.0 : f32, max = 1.0 : f32}> : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}
