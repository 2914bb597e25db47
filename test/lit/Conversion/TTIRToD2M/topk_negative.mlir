// RUN: true
// Checked from topk.mlir: topks the lowering does not take, refused at the op.

// CHECK: topk_negative.mlir:[[# @LINE + 2]]:12: error: D2M topk only supports 2D reduction on dim 0 or dim 1
func.func @rank3(%a: tensor<2x32x64xf32>) -> (tensor<2x32x4xf32>, tensor<2x32x4xsi32>) {
  %v, %i = "ttir.topk"(%a) <{k = 4 : i32, dim = 2 : i32, largest = true, sorted = true}> : (tensor<2x32x64xf32>) -> (tensor<2x32x4xf32>, tensor<2x32x4xsi32>)
  return %v, %i : tensor<2x32x4xf32>, tensor<2x32x4xsi32>
}

// -----

// CHECK: topk_negative.mlir:[[# @LINE + 2]]:12: error: a topk of si32 is not converted to D2M yet (of f32 and bf16 is)
func.func @integers(%a: tensor<32x64xsi32>) -> (tensor<32x4xsi32>, tensor<32x4xsi32>) {
  %v, %i = "ttir.topk"(%a) <{k = 4 : i32, dim = 1 : i32, largest = true, sorted = true}> : (tensor<32x64xsi32>) -> (tensor<32x4xsi32>, tensor<32x4xsi32>)
  return %v, %i : tensor<32x4xsi32>, tensor<32x4xsi32>
}

// -----

// CHECK: topk_negative.mlir:[[# @LINE + 2]]:12: error: D2M topk only supports 1 <= k <= 64 and k <= the reduced dim (256), got 65
func.func @large_k(%a: tensor<32x256xf32>) -> (tensor<32x65xf32>, tensor<32x65xsi32>) {
  %v, %i = "ttir.topk"(%a) <{k = 65 : i32, dim = 1 : i32, largest = true, sorted = true}> : (tensor<32x256xf32>) -> (tensor<32x65xf32>, tensor<32x65xsi32>)
  return %v, %i : tensor<32x65xf32>, tensor<32x65xsi32>
}

// -----

// CHECK: topk_negative.mlir:[[# @LINE + 2]]:12: error: a sorted D2M topk with k = 32 over at most two tiles is not converted yet
func.func @sorted_k32(%a: tensor<32x64xf32>) -> (tensor<32x32xf32>, tensor<32x32xsi32>) {
  %v, %i = "ttir.topk"(%a) <{k = 32 : i32, dim = 1 : i32, largest = true, sorted = true}> : (tensor<32x64xf32>) -> (tensor<32x32xf32>, tensor<32x32xsi32>)
  return %v, %i : tensor<32x32xf32>, tensor<32x32xsi32>
}
