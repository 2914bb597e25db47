// RUN: ttmlir-opt --ttir-to-emitpy-pipeline="system-desc-path=%system_desc_path% enable-const-eval=true enable-cpu-hoisted-const-eval=false" -o %t.mlir %s
// RUN: FileCheck %s --check-prefix=EMITPY --input-file=%t.mlir
// RUN: ttmlir-translate --mlir-to-python -o %t.py %t.mlir
// RUN: FileCheck %s --input-file=%t.py
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% enable-const-eval=true" %s | ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn
// RUN: ttrt emitpy %t.py --flatbuffer %t.ttnn --loops 3 --result-file %t.json
// RUN: FileCheck %s --check-prefix=RESULT --input-file=%t.json

// The weight's transpose is computed from the parameter alone: a const-eval function the generated code runs once,
// behind a cache dictionary, in a file of its own.
func.func @forward(%x: tensor<32x64xbf16> {ttcore.argument_type = #ttcore.argument_type<input>},
                   %w: tensor<32x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<32x32xbf16> {
  %0 = "ttir.permute"(%w) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xbf16>) -> tensor<64x32xbf16>
  %1 = "ttir.matmul"(%x, %0) : (tensor<32x64xbf16>, tensor<64x32xbf16>) -> tensor<32x32xbf16>
  return %1 : tensor<32x32xbf16>
}

// EMITPY: emitpy.file "main" {
// EMITPY: emitpy.import from "consteval" import "consteval_forward"
// EMITPY: emitpy.global @ce_cache_forward = #emitpy.opaque<"{}">
// EMITPY: emitpy.global_statement @ce_cache_forward
// EMITPY: emitpy.file "consteval" {
// EMITPY: func.func private @forward_const_eval_0
// EMITPY: emitpy.if "not {}" args

// CHECK-LABEL: # File: "main"
// CHECK: from consteval import consteval_forward
// CHECK: ce_cache_forward = {}
// CHECK: def forward([[IN:.*]]):
// CHECK-NEXT: global ce_cache_forward
// CHECK-NEXT: ce_cache_forward = consteval_forward(ce_cache_forward, [[IN]])
// CHECK: ce_cache_forward["forward_const_eval_0"]
// CHECK: ttnn.matmul(
// CHECK-NOT: ttnn.permute(
// CHECK-LABEL: # File: "consteval"
// CHECK: def forward_const_eval_0(
// CHECK: ttnn.permute(
// CHECK: def consteval_forward([[CACHE:.*]], [[ARGS:.*]]):
// CHECK-NEXT: if not [[CACHE]]:
// CHECK: forward_const_eval_0(
// CHECK: [[CACHE]]["forward_const_eval_0"] =
// CHECK: return [[CACHE]]

// The first call moves the host weight to the device, tiles it and runs the permute; the next two read the cache.
// Every call tiles the input, which arrives row-major, before the matmul.
// RESULT: "result": "pass"
// RESULT: "loop_0": {
// RESULT: "ops": 5
// RESULT: "loop_1": {
// RESULT: "ops": 2
// RESULT: "loop_2": {
// RESULT: "ops": 2
