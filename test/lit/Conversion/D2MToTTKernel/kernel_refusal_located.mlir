// RUN: not ttmlir-opt --ttcore-register-device --d2m-fe-pipeline --d2m-be-pipeline --d2m-to-ttkernel-pipeline %s 2>&1 | FileCheck %s
// A batched matmul is a D2M program in explicit form whose block indices --ttir-to-ttmetal-pipeline's kernels
// compute; the staged stages leave them in its kernel functions. The refusal names the op the kernel was made for:
// the kernel functions and the programs the stages rebuild keep it, and an op copied into a kernel is placed by the
// ops around it.

func.func @batched(%a: tensor<4x64x64xf32>, %b: tensor<4x64x64xf32>) -> tensor<4x64x64xf32> {
  // CHECK: kernel_refusal_located.mlir:[[# @LINE + 1]]:8: error: 'd2m.block_index' in a kernel function is not converted to TTKernel yet
  %0 = "ttir.matmul"(%a, %b) : (tensor<4x64x64xf32>, tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  return %0 : tensor<4x64x64xf32>
}
