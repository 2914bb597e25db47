// RUN: ttmlir-opt --ttcore-register-device --ttnn-layout --convert-ttir-to-ttnn --ttnn-workaround %s | FileCheck %s --check-prefix=LEVEL0
// RUN: ttmlir-opt --ttcore-register-device --ttnn-layout --convert-ttir-to-ttnn --ttnn-workaround="ttnn-optimization-level=1" %s | FileCheck %s --check-prefix=LEVEL1
// RUN: not ttmlir-opt --ttnn-workaround="ttnn-optimization-level=3" %s 2>&1 | FileCheck %s --check-prefix=BAD
// From optimization level 1 the optimizer chooses data types: tanh keeps its f32 operand, while topk (on upstream's
// list of kernels the optimizer cannot steer) still gets integer indices in ui16.

// LEVEL0-LABEL: func.func @tanh_f32
// LEVEL0: "ttnn.to_tensor_spec"(%arg0) {{.*}} -> tensor<64x128xbf16
// LEVEL1-LABEL: func.func @tanh_f32
// LEVEL1-NOT: "ttnn.to_tensor_spec"
// LEVEL1: "ttnn.tanh"(%arg0) : (tensor<64x128xf32
func.func @tanh_f32(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = "ttir.tanh"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// LEVEL1-LABEL: func.func @topk_indices
// LEVEL1: "ttnn.topk"
// LEVEL1-SAME: tensor<2x32x5xui16
func.func @topk_indices(%arg0: tensor<2x32x128xbf16>) -> (tensor<2x32x5xbf16>, tensor<2x32x5xsi32>) {
  %values, %indices = "ttir.topk"(%arg0) {k = 5 : i32} : (tensor<2x32x128xbf16>) -> (tensor<2x32x5xbf16>, tensor<2x32x5xsi32>)
  return %values, %indices : tensor<2x32x5xbf16>, tensor<2x32x5xsi32>
}

// BAD: error: ttnn-optimization-level must be 0, 1 or 2, got 3
