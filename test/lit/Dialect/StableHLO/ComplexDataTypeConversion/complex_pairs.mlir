// REQUIRES: stablehlo
// RUN: ttmlir-opt --split-input-file --stablehlo-complex-math-expander --stablehlo-complex-data-type-conversion %s | FileCheck %s
// Complex values become (re, im) pairs in a trailing dimension; complex math becomes real math on the parts.

// CHECK-LABEL: func.func @scale
// CHECK-SAME: (%arg0: tensor<3x5x2xf32>) -> tensor<5x3x2xf32>
func.func @scale(%x: tensor<3x5xcomplex<f32>>) -> tensor<5x3xcomplex<f32>> {
  // a splat whose parts differ is written out in full; one whose parts agree stays a splat
  // CHECK: stablehlo.constant dense<{{\[\[}}[0.000000e+00, 1.000000e+00]
  // CHECK-SAME: tensor<3x5x2xf32>
  // CHECK: stablehlo.constant dense<2.500000e-01> : tensor<2xf32>
  %i = stablehlo.constant dense<(0.0, 1.0)> : tensor<3x5xcomplex<f32>>
  %q = stablehlo.constant dense<(0.25, 0.25)> : tensor<complex<f32>>
  // CHECK: stablehlo.broadcast_in_dim %{{.*}}, dims = [2] : (tensor<2xf32>) -> tensor<3x5x2xf32>
  %b = stablehlo.broadcast_in_dim %q, dims = [] : (tensor<complex<f32>>) -> tensor<3x5xcomplex<f32>>
  // (a + bi)(c + di): real part ac - bd, imaginary part bc + ad
  // CHECK: %[[A:.*]] = stablehlo.reshape {{.*}} -> tensor<3x5xf32>
  // CHECK: %[[B:.*]] = stablehlo.reshape {{.*}} -> tensor<3x5xf32>
  // CHECK: %[[C:.*]] = stablehlo.reshape {{.*}} -> tensor<3x5xf32>
  // CHECK: %[[D:.*]] = stablehlo.reshape {{.*}} -> tensor<3x5xf32>
  // CHECK: %[[AC:.*]] = stablehlo.multiply %[[A]], %[[C]]
  // CHECK: %[[BD:.*]] = stablehlo.multiply %[[B]], %[[D]]
  // CHECK: stablehlo.subtract %[[AC]], %[[BD]]
  // CHECK: %[[BC:.*]] = stablehlo.multiply %[[B]], %[[C]]
  // CHECK: %[[AD:.*]] = stablehlo.multiply %[[A]], %[[D]]
  // CHECK: stablehlo.add %[[BC]], %[[AD]]
  // CHECK: stablehlo.concatenate {{.*}} dim = 0 : {{.*}} -> tensor<2x3x5xf32>
  // CHECK: stablehlo.transpose {{.*}} dims = [1, 2, 0] : (tensor<2x3x5xf32>) -> tensor<3x5x2xf32>
  %m = stablehlo.multiply %x, %i : tensor<3x5xcomplex<f32>>
  %s = stablehlo.add %m, %b : tensor<3x5xcomplex<f32>>
  // CHECK: stablehlo.transpose {{.*}} dims = [1, 0, 2] : (tensor<3x5x2xf32>) -> tensor<5x3x2xf32>
  %t = stablehlo.transpose %s, dims = [1, 0] : (tensor<3x5xcomplex<f32>>) -> tensor<5x3xcomplex<f32>>
  // CHECK-NOT: complex
  return %t : tensor<5x3xcomplex<f32>>
}

// -----

sdy.mesh @mesh = <["x"=2]>
// CHECK-LABEL: func.func @manual
// CHECK: in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}]>]
// CHECK-SAME: (%{{.*}}: tensor<4x2xf32>)
// CHECK: stablehlo.slice %{{.*}} [1:2, 0:4] : (tensor<2x4xf32>) -> tensor<1x4xf32>
func.func @manual(%x: tensor<8xcomplex<f32>>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<4xcomplex<f32>>) {
    %1 = stablehlo.imag %a : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xcomplex<f32>>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
