// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn
// RUN: not ttrt run %t.ttnn 2>&1 | FileCheck %s
// A snapshot the runtime cannot write ends the run with a one-line error naming the op.

// CHECK: ERROR: 'debug.memory_snapshot' at loc(unknown): cannot write /nonexistent-dir/memory.txt: No such file or directory
module {
  func.func @main(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
    "debug.memory_snapshot"(%arg0) <{file_path = "/nonexistent-dir/memory.txt"}> : (tensor<32x32xf32>) -> ()
    return %arg0 : tensor<32x32xf32>
  }
}
