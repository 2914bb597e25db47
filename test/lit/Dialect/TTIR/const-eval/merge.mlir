// RUN: ttmlir-opt --const-eval-hoist-transform %s | FileCheck %s

// Ops made const-evaluable after a first hoisting (here: already a load_cached, then more parameter-only ops) are
// merged into the function they load from, which takes the new argument; the function the merge absorbed goes away.
// CHECK-LABEL: func.func private @f_const_eval_0(%arg0: tensor<32x32xf32>, %arg1: tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK: "ttir.exp"(%arg0)
// CHECK: "ttir.sqrt"(%arg1)
// CHECK: "ttir.add"
// CHECK-NOT: @f_const_eval_1(
// CHECK-LABEL: func.func @f(
// CHECK: ttcore.load_cached(@f_const_eval_0, [%arg1, %arg2])
// CHECK-NOT: load_cached
module {
  func.func private @f_const_eval_0(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> attributes {tt.function_type = "const_eval"} {
    %0 = "ttir.exp"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
  func.func private @f_const_eval_1(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> attributes {tt.function_type = "const_eval"} {
    %0 = "ttir.sqrt"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
  func.func @f(%x: tensor<32x32xf32>, %w: tensor<32x32xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>},
               %v: tensor<32x32xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<32x32xf32> {
    %0 = ttcore.load_cached(@f_const_eval_0, [%w]) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %1 = ttcore.load_cached(@f_const_eval_1, [%v]) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %2 = "ttir.add"(%0, %1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %3 = "ttir.add"(%x, %2) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    return %3 : tensor<32x32xf32>
  }
}
