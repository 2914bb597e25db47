// RUN: ttmlir-opt --split-input-file %s | FileCheck %s
// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline %S/Inputs/triangular_solve.mlir | FileCheck %s --check-prefix=HOIST
// StableHLO ops the device has no kernel for read and print in StableHLO's syntax; the CPU fallback computes them.

// CHECK-LABEL: func.func @transforms
func.func @transforms(%c: tensor<4xcomplex<f32>>, %x: tensor<6xf32>) -> (tensor<4xcomplex<f32>>, tensor<6xf32>) {
  // CHECK: stablehlo.fft %{{.*}}, type = IFFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %0 = stablehlo.fft %c, type = IFFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  // CHECK: stablehlo.reduce_precision %{{.*}}, format = e5m10 : tensor<6xf32>
  %1 = stablehlo.reduce_precision %x, format = e5m10 : tensor<6xf32>
  return %0, %1 : tensor<4xcomplex<f32>>, tensor<6xf32>
}

// -----

// CHECK-LABEL: func.func @linear_algebra
func.func @linear_algebra(%a: tensor<3x3xf32>, %b: tensor<3x1xf32>) -> (tensor<3x1xf32>, tensor<3x3xf32>) {
  // CHECK: "stablehlo.triangular_solve"(%{{.*}}, %{{.*}}) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}>
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  // CHECK: "stablehlo.cholesky"(%{{.*}}) <{lower = true}>
  %1 = "stablehlo.cholesky"(%a) {lower = true} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %0, %1 : tensor<3x1xf32>, tensor<3x3xf32>
}

// -----

// CHECK-LABEL: func.func @map
func.func @map(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: "stablehlo.map"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 0>}>
  %0 = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %m = stablehlo.multiply %x, %y : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) {dimensions = array<i64: 0>} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// HOIST: ttcore.cpu_module
// HOIST: "stablehlo.triangular_solve"
