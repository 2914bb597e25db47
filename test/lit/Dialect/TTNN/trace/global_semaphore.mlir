// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device %s | ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn
// RUN: ttrt run %t.ttnn --artifact-dir %t.artifacts --result-file %t.json
// RUN: FileCheck %s --check-prefix=RESULT --input-file=%t.json
// A global semaphore lives beyond one op: created on a core range, reset, and passed to the ops that signal
// on it; it is serialized as a semaphore reference, not a tensor.

#dram = #ttnn.buffer_type<dram>
#dev = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
module {
  // CHECK: %[[SEM:.*]] = "ttnn.create_global_semaphore"(%{{.*}}) <{core_range_set = #ttnn.core_range_set<[#ttnn.core_range<(0,0), (7,7)>]>, initial_value = 1 : ui32}> : (!ttnn.device) -> !ttnn.global_semaphore
  // CHECK: "ttnn.reset_global_semaphore"(%[[SEM]]) <{value = 0 : ui32}> : (!ttnn.global_semaphore) -> ()
  func.func @main(%arg0: tensor<32x32xf32, #dev>) -> tensor<32x32xf32, #dev> {
    %d = "ttnn.get_device"() <{mesh_offset = #ttnn<mesh_offset 0x0>, mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %sem = "ttnn.create_global_semaphore"(%d) <{core_range_set = #ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, initial_value = 1 : ui32}> : (!ttnn.device) -> !ttnn.global_semaphore
    "ttnn.reset_global_semaphore"(%sem) <{value = 0 : ui32}> : (!ttnn.global_semaphore) -> ()
    %0 = "ttnn.relu"(%arg0) : (tensor<32x32xf32, #dev>) -> tensor<32x32xf32, #dev>
    return %0 : tensor<32x32xf32, #dev>
  }
}
// RESULT: "result": "pass"
