// REQUIRES: stablehlo
// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline --ttir-to-ttnn-backend-pipeline %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=TTRT
// RUN: FileCheck %s --input-file=%t.mlir
// A JAX program as JAX writes it (jax.jit(mlp).lower(...) with debug info: #loc file ranges, mhlo attributes,
// jax.result_info, chlo.erfc) through the shell path: TTIR, TTNN, flatbuffer, ttrt.
//
//   def mlp(x, w1, b1, w2):
//       h = jax.nn.gelu(x @ w1 + b1, approximate=False)
//       return jax.nn.softmax(h @ w2, axis=-1)

// CHECK: "ttnn.linear"
// CHECK: "ttnn.erfc"
// CHECK: "ttnn.matmul"
// CHECK: "ttnn.softmax"
// CHECK-NOT: stablehlo.
// TTRT: {{.*}}.ttnn: PASS
#loc1 = loc("x")
#loc2 = loc("w1")
#loc3 = loc("b1")
#loc4 = loc("w2")
module @jit_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x32xf32> loc("x"), %arg1: tensor<32x64xf32> loc("w1"), %arg2: tensor<64xf32> loc("b1"), %arg3: tensor<64x16xf32> loc("w2")) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32> loc(#loc23)
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32> loc(#loc24)
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<8x64xf32> loc(#loc25)
    %3 = stablehlo.add %0, %2 : tensor<8x64xf32> loc(#loc25)
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32> loc(#loc19)
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x64xf32> loc(#loc26)
    %5 = stablehlo.multiply %4, %3 : tensor<8x64xf32> loc(#loc26)
    %6 = stablehlo.negate %3 : tensor<8x64xf32> loc(#loc27)
    %cst_0 = stablehlo.constant dense<0.707106769> : tensor<f32> loc(#loc19)
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x64xf32> loc(#loc26)
    %8 = stablehlo.multiply %6, %7 : tensor<8x64xf32> loc(#loc26)
    %9 = chlo.erfc %8 : tensor<8x64xf32> -> tensor<8x64xf32> loc(#loc28)
    %10 = stablehlo.multiply %5, %9 : tensor<8x64xf32> loc(#loc26)
    %11 = stablehlo.dot_general %10, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32> loc(#loc29)
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32> loc(#loc30)
    %12 = stablehlo.reduce(%11 init: %cst_1) applies stablehlo.maximum across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32> loc(#loc30)
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32> loc(#loc19)
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8xf32> loc(#loc31)
    %14 = stablehlo.maximum %13, %12 : tensor<8xf32> loc(#loc31)
    %15 = stablehlo.broadcast_in_dim %14, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32> loc(#loc32)
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32> loc(#loc33)
    %17 = stablehlo.subtract %11, %16 : tensor<8x16xf32> loc(#loc33)
    %18 = stablehlo.exponential %17 : tensor<8x16xf32> loc(#loc34)
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32> loc(#loc35)
    %19 = stablehlo.reduce(%18 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32> loc(#loc35)
    %20 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32> loc(#loc32)
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32> loc(#loc36)
    %22 = stablehlo.divide %18, %21 : tensor<8x16xf32> loc(#loc36)
    return %22 : tensor<8x16xf32> loc(#loc19)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc5 = loc("<stdin>":3:20 to :26)
#loc6 = loc("<stdin>":6:6 to :31)
#loc7 = loc("<stdin>":3:20 to :31)
#loc8 = loc("<stdin>":3:8 to :51)
#loc9 = loc("<stdin>":4:26 to :32)
#loc10 = loc("<stdin>":4:11 to :42)
#loc11 = loc("mlp"(#loc5))
#loc12 = loc("<module>"(#loc6))
#loc13 = loc("mlp"(#loc7))
#loc14 = loc("mlp"(#loc8))
#loc15 = loc("mlp"(#loc9))
#loc16 = loc("mlp"(#loc10))
#loc17 = loc(callsite(#loc11 at #loc12))
#loc18 = loc(callsite(#loc13 at #loc12))
#loc19 = loc("jit(mlp)"(#loc12))
#loc20 = loc(callsite(#loc14 at #loc12))
#loc21 = loc(callsite(#loc15 at #loc12))
#loc22 = loc(callsite(#loc16 at #loc12))
#loc23 = loc("jit(mlp)/dot_general"(#loc17))
#loc24 = loc("jit(mlp)/broadcast_in_dim"(#loc18))
#loc25 = loc("jit(mlp)/add"(#loc18))
#loc26 = loc("jit(mlp)/mul"(#loc20))
#loc27 = loc("jit(mlp)/neg"(#loc20))
#loc28 = loc("jit(mlp)/erfc"(#loc20))
#loc29 = loc("jit(mlp)/dot_general"(#loc21))
#loc30 = loc("jit(mlp)/reduce_max"(#loc22))
#loc31 = loc("jit(mlp)/max"(#loc22))
#loc32 = loc("jit(mlp)/broadcast_in_dim"(#loc22))
#loc33 = loc("jit(mlp)/sub"(#loc22))
#loc34 = loc("jit(mlp)/exp"(#loc22))
#loc35 = loc("jit(mlp)/reduce_sum"(#loc22))
#loc36 = loc("jit(mlp)/div"(#loc22))

