// RUN: ttmlir-opt --ttir-to-emitpy-pipeline="system-desc-path=%system_desc_path%" -o %t.mlir %s
// RUN: ttmlir-translate --mlir-to-python -o %t.py %t.mlir
// RUN: FileCheck %s --input-file=%t.py
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% enable-const-eval=true enable-cpu-hoisted-const-eval=true" %s | ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn
// RUN: ttrt emitpy %t.py --flatbuffer %t.ttnn --loops 2 --result-file %t.json
// RUN: FileCheck %s --check-prefix=RESULT --input-file=%t.json

// Work hoisted to the host becomes Python functions calling `ttir_cpu` (the TTIR ops on host tensors), each right
// before its first caller: an op marked for hoisting in the forward function, and (by default in this pipeline)
// the parameter-only subgraph const-eval computes once, in the consteval file that imports ttir_cpu.
func.func @forward(%x: tensor<32x32xf32> {ttcore.argument_type = #ttcore.argument_type<input>},
                   %w: tensor<32x32xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                   %b: tensor<32x32xf32> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<32x32xf32> {
  %0 = "ttir.div"(%w, %b) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %1 = "ttir.maximum"(%x, %x) {ttir.should_hoist} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %2 = "ttir.multiply"(%1, %0) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  return %2 : tensor<32x32xf32>
}

// CHECK-LABEL: # File: "main"
// CHECK: import ttnn
// CHECK-NEXT: import utils
// CHECK-NEXT: import ttir_cpu
// CHECK: def cpu_hoisted_ttir_maximum_{{.*}}(
// CHECK: ttir_cpu.maximum(
// CHECK: def forward(
// CHECK: cpu_hoisted_ttir_maximum_{{.*}}(
// CHECK: ttnn.multiply(
// CHECK-LABEL: # File: "consteval"
// CHECK: import ttir_cpu
// CHECK: def [[HOISTED:cpu_hoisted_const_eval_[0-9a-f]+]](
// CHECK-NEXT: def [[HOISTED]]_impl(
// CHECK: ttir_cpu.div(
// CHECK: return utils.execute_cpu_hoisted_function([{{.*}}], [[HOISTED]]_impl)
// CHECK: def forward_const_eval_0(
// CHECK: cpu_hoisted_const_eval_{{.*}}(

// RESULT: "result": "pass"
// RESULT: "loop_0": {
// RESULT: "loop_1": {
