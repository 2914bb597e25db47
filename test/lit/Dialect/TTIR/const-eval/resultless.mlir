// RUN: ttmlir-opt --const-eval-hoist-transform %s | FileCheck %s
// A const-eval function left returning nothing (what read its results went away) caches nothing: it and its
// load_cached go; one with results stays.

// CHECK-NOT: @forward_const_eval_0
// CHECK-LABEL: func.func private @forward_const_eval_1
// CHECK-LABEL: func.func @forward
// CHECK-NOT: load_cached(@forward_const_eval_0
// CHECK: ttcore.load_cached(@forward_const_eval_1, [%arg1])
func.func private @forward_const_eval_0() attributes {tt.function_type = "const_eval"} {
  return
}
func.func private @forward_const_eval_1(%w: tensor<32x32xbf16>) -> tensor<32x32xbf16> attributes {tt.function_type = "const_eval"} {
  %0 = "ttir.neg"(%w) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %0 : tensor<32x32xbf16>
}
func.func @forward(%x: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<input>}, %w: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<32x32xbf16> attributes {tt.function_type = "forward_device"} {
  ttcore.load_cached(@forward_const_eval_0, []) : () -> ()
  %0 = ttcore.load_cached(@forward_const_eval_1, [%w]) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
  %1 = "ttir.add"(%x, %0) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %1 : tensor<32x32xbf16>
}
