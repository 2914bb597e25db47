// RUN: ttmlir-opt --const-eval-hoist-transform -o %t %s
// RUN: FileCheck %s --input-file=%t
// RUN: ttmlir-opt --const-eval-hoist-transform %t | FileCheck %s --check-prefix=AGAIN

// Two subgraphs that share no value become two functions, named after the caller in order; an input-only op stays.
// CHECK-LABEL: func.func private @two_const_eval_0(
// CHECK-SAME: attributes {tt.function_type = "const_eval"}
// CHECK: "ttir.exp"
// CHECK-LABEL: func.func private @two_const_eval_1(
// CHECK: "ttir.multiply"
// CHECK: "ttir.neg"
// CHECK: return
// CHECK-LABEL: func.func @two(
// CHECK-NEXT: %[[A:.*]] = ttcore.load_cached(@two_const_eval_0, [%arg1])
// CHECK-NEXT: %[[B:.*]] = ttcore.load_cached(@two_const_eval_1, [%arg2, %arg3])
// CHECK: "ttir.add"(%arg0, %[[A]])
// CHECK: "ttir.add"({{.*}}, %[[B]])
func.func @two(%x: tensor<32x32xf32> {ttcore.argument_type = #ttcore.argument_type<input>},
               %w: tensor<32x32xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>},
               %b: tensor<32x32xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>},
               %c: tensor<32x32xf32> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<32x32xf32> {
  %0 = "ttir.exp"(%w) : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %1 = "ttir.multiply"(%b, %c) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %2 = "ttir.neg"(%1) : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %3 = "ttir.add"(%x, %0) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %4 = "ttir.add"(%3, %2) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  return %4 : tensor<32x32xf32>
}

// A creation op joins the subgraph that uses it and, used by the forward ops too, is one of its results; ttir.empty
// and arguments without a parameter/constant mark never join.
// CHECK-LABEL: func.func private @shared_fill_const_eval_0(%arg0: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xf32>)
// CHECK: "ttir.full"
// CHECK: "ttir.maximum"
// CHECK-LABEL: func.func @shared_fill(
// CHECK: %[[R:.*]]:2 = ttcore.load_cached(@shared_fill_const_eval_0, [%arg1])
// CHECK: "ttir.minimum"(%arg0, %[[R]]#0)
// CHECK: "ttir.subtract"({{.*}}, %[[R]]#1)
func.func @shared_fill(%x: tensor<32x32xf32>, %w: tensor<32x32xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<32x32xf32> {
  %0 = "ttir.full"() <{fill_value = 2.0 : f32, shape = array<i32: 32, 32>}> : () -> tensor<32x32xf32>
  %1 = "ttir.maximum"(%w, %0) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %2 = "ttir.minimum"(%x, %0) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %3 = "ttir.subtract"(%2, %1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  return %3 : tensor<32x32xf32>
}

// A second run finds nothing new to hoist: the functions and calls stay as they are.
// AGAIN-COUNT-3: func.func private @{{.*}}_const_eval_
// AGAIN-NOT: _const_eval_2
