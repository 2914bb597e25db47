// RUN: not ttmlir-opt "--ttir-to-ttmetal-pipeline=collapse-tensors-2d=false" %s 2>&1 | FileCheck %s
// What is live at once must fit. A tensor kept at its rank lives in L1 (it is neither moved to DRAM nor
// streamed): 4 matrices of 1024x4096 f32, each on its own 16 cores, are 1 MiB a core, and the tilize writing
// them needs their row-major staging beside them.

// CHECK: error: the tensors live at once in @big need {{[0-9]+}} B of L1 per core ({{[0-9]+}} B free; a buffer of this op takes 1048576 B)
func.func @big(%x: tensor<4x1024x4096xf32>) -> tensor<4x1024x4096xf32> {
  %0 = "ttir.exp"(%x) : (tensor<4x1024x4096xf32>) -> tensor<4x1024x4096xf32>
  return %0 : tensor<4x1024x4096xf32>
}
