// RUN: ttmlir-opt --ttir-to-emitpy-pipeline="system-desc-path=%system_desc_path%" -o %t.mlir %s
// RUN: FileCheck %s --check-prefix=EMITPY --input-file=%t.mlir
// RUN: ttmlir-translate --mlir-to-python -o %t.py %t.mlir
// RUN: FileCheck %s --input-file=%t.py
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn
// RUN: ttrt emitpy %t.py --flatbuffer %t.ttnn --loops 2 --result-file %t.json
// RUN: FileCheck %s --check-prefix=RESULT --input-file=%t.json

func.func @forward(%x: tensor<32x64xbf16>, %w: tensor<64x32xbf16>, %b: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
  %0 = "ttir.matmul"(%x, %w) : (tensor<32x64xbf16>, tensor<64x32xbf16>) -> tensor<32x32xbf16>
  %1 = "ttir.add"(%0, %b) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  %2 = "ttir.softmax"(%1) <{dimension = 1 : si32}> : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %2 : tensor<32x32xbf16>
}

// EMITPY: emitpy.file "main" {
// EMITPY: emitpy.import import "ttnn"
// EMITPY: emitpy.call_opaque "ttnn.matmul"
// EMITPY-SAME: keyword_args = ["", "", "transpose_a", "transpose_b", "memory_config", "program_config", "compute_kernel_config", "activation"]

// CHECK: # File: "main"
// CHECK: import ttnn
// CHECK: import utils
// CHECK: def forward([[ARGS:inputs]]):
// CHECK: [[X:var_[0-9]+]] = [[ARGS]][0]
// CHECK: = utils.DeviceGetter.get_device([1, 1])
// CHECK: [[MM:var_[0-9]+]] = ttnn.matmul([[X]], {{var_[0-9]+}}, transpose_a=False, transpose_b=False, memory_config=ttnn.MemoryConfig(ttnn.TensorMemoryLayout.INTERLEAVED, ttnn.BufferType.DRAM, None), program_config=None, compute_kernel_config={{.*}}, activation=None)
// CHECK: = ttnn.add([[MM]], {{var_[0-9]+}}, dtype=ttnn.DataType.BFLOAT16, memory_config=ttnn.MemoryConfig(
// CHECK: ttnn.deallocate([[MM]], force=False)
// CHECK: = ttnn.softmax({{var_[0-9]+}}, dimension=1, numericStable=False,
// CHECK: = utils.create_list(
// CHECK: def create_inputs_for_forward():
// CHECK: ttnn.ones(shape=ttnn.Shape([32, 64]), dtype=ttnn.DataType.BFLOAT16, layout=ttnn.Layout.TILE, device={{var_[0-9]+}},
// CHECK: def main():
// CHECK: if __name__ == "__main__":

// RESULT: "result": "pass"
// RESULT: "loop_1"
