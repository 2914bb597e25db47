// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device %s | ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn
// RUN: ttrt run %t.ttnn --loops 3 --check-memory-leak --artifact-dir %t.artifacts --result-file %t.json
// RUN: FileCheck %s --check-prefix=RESULT --input-file=%t.json
// A trace hoisted by hand, as --ttnn-trace-hoist-transform lays it out: (a + b) * b runs in @trace_body,
// which stores its result into an output slot. The first run of @main allocates the slots and captures the
// trace; the later runs write the new inputs into the input slots and replay it.

#dram = #ttnn.buffer_type<dram>
#system_memory = #ttnn.buffer_type<system_memory>
#dev = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#host = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x64xbf16, #system_memory>>

// CHECK-LABEL: func.func private @trace_body
// CHECK: "ttnn.copy"(%{{.*}}, %arg2) : (tensor<32x64xbf16, #ttnn_layout>, tensor<32x64xbf16, #ttnn_layout>) -> ()
// CHECK-LABEL: func.func private @capture
// CHECK: "ttnn.write_tensor"(%arg0, %arg2) <{blocking = false, cq_id = 0 : ui32}>
// CHECK: %[[ID:.*]] = "ttnn.begin_trace_capture"(%{{.*}}) <{cq_id = 0 : ui32}> : (!ttnn.device) -> tensor<ui32, #ttnn.trace_id>
// CHECK: "ttnn.end_trace_capture"(%{{.*}}, %[[ID]])
// CHECK: "ttnn.execute_trace"(%{{.*}}, %[[ID]]) <{blocking = false, cq_id = 0 : ui32}>
// CHECK-LABEL: func.func @main
// CHECK: "ttnn.capture_or_execute_trace"(%{{.*}}, %arg0, %arg1) <{allocate_slots_callee = @allocate_slots, capture_callee = @capture, execute_callee = @execute, operandSegmentSizes = array<i32: 1, 2, 0>}>

// RESULT: "result": "pass"
// RESULT: "loop_0"
// RESULT: "loop_1"
// RESULT: "loop_2"
module {
  func.func private @trace_body(%a: tensor<32x64xbf16, #dev>, %b: tensor<32x64xbf16, #dev>, %out: tensor<32x64xbf16, #dev>) {
    %0 = "ttnn.add"(%a, %b) : (tensor<32x64xbf16, #dev>, tensor<32x64xbf16, #dev>) -> tensor<32x64xbf16, #dev>
    %1 = "ttnn.multiply"(%0, %b) : (tensor<32x64xbf16, #dev>, tensor<32x64xbf16, #dev>) -> tensor<32x64xbf16, #dev>
    "ttnn.deallocate"(%0) <{force = false}> : (tensor<32x64xbf16, #dev>) -> ()
    "ttnn.copy"(%1, %out) : (tensor<32x64xbf16, #dev>, tensor<32x64xbf16, #dev>) -> ()
    "ttnn.deallocate"(%1) <{force = false}> : (tensor<32x64xbf16, #dev>) -> ()
    return
  }
  func.func private @allocate_slots() -> (tensor<32x64xbf16, #dev>, tensor<32x64xbf16, #dev>, tensor<32x64xbf16, #dev>) {
    %d = "ttnn.get_device"() <{mesh_offset = #ttnn<mesh_offset 0x0>, mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %0 = "ttnn.empty"(%d) <{dtype = #ttcore.supportedDataTypes<bf16>, layout = #ttnn.layout<tile>, memory_config = #ttnn.memory_config<#dram, <interleaved>>, shape = #ttnn.shape<32x64>}> : (!ttnn.device) -> tensor<32x64xbf16, #dev>
    %1 = "ttnn.empty"(%d) <{dtype = #ttcore.supportedDataTypes<bf16>, layout = #ttnn.layout<tile>, memory_config = #ttnn.memory_config<#dram, <interleaved>>, shape = #ttnn.shape<32x64>}> : (!ttnn.device) -> tensor<32x64xbf16, #dev>
    %2 = "ttnn.empty"(%d) <{dtype = #ttcore.supportedDataTypes<bf16>, layout = #ttnn.layout<tile>, memory_config = #ttnn.memory_config<#dram, <interleaved>>, shape = #ttnn.shape<32x64>}> : (!ttnn.device) -> tensor<32x64xbf16, #dev>
    return %0, %1, %2 : tensor<32x64xbf16, #dev>, tensor<32x64xbf16, #dev>, tensor<32x64xbf16, #dev>
  }
  func.func private @capture(%h0: tensor<32x64xbf16, #host>, %h1: tensor<32x64xbf16, #host>, %a: tensor<32x64xbf16, #dev>, %b: tensor<32x64xbf16, #dev>, %out: tensor<32x64xbf16, #dev>) -> tensor<ui32, #ttnn.trace_id> {
    %d = "ttnn.get_device"() <{mesh_offset = #ttnn<mesh_offset 0x0>, mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    "ttnn.write_tensor"(%h0, %a) <{blocking = false, cq_id = 0 : ui32}> : (tensor<32x64xbf16, #host>, tensor<32x64xbf16, #dev>) -> ()
    "ttnn.write_tensor"(%h1, %b) <{blocking = false, cq_id = 0 : ui32}> : (tensor<32x64xbf16, #host>, tensor<32x64xbf16, #dev>) -> ()
    call @trace_body(%a, %b, %out) : (tensor<32x64xbf16, #dev>, tensor<32x64xbf16, #dev>, tensor<32x64xbf16, #dev>) -> ()
    %id = "ttnn.begin_trace_capture"(%d) <{cq_id = 0 : ui32}> : (!ttnn.device) -> tensor<ui32, #ttnn.trace_id>
    call @trace_body(%a, %b, %out) : (tensor<32x64xbf16, #dev>, tensor<32x64xbf16, #dev>, tensor<32x64xbf16, #dev>) -> ()
    "ttnn.end_trace_capture"(%d, %id) <{cq_id = 0 : ui32}> : (!ttnn.device, tensor<ui32, #ttnn.trace_id>) -> ()
    "ttnn.execute_trace"(%d, %id) <{blocking = false, cq_id = 0 : ui32}> : (!ttnn.device, tensor<ui32, #ttnn.trace_id>) -> ()
    return %id : tensor<ui32, #ttnn.trace_id>
  }
  func.func private @execute(%id: tensor<ui32, #ttnn.trace_id>) {
    %d = "ttnn.get_device"() <{mesh_offset = #ttnn<mesh_offset 0x0>, mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    "ttnn.execute_trace"(%d, %id) <{blocking = false, cq_id = 0 : ui32}> : (!ttnn.device, tensor<ui32, #ttnn.trace_id>) -> ()
    return
  }
  func.func @main(%arg0: tensor<32x64xbf16, #host>, %arg1: tensor<32x64xbf16, #host>) -> tensor<32x64xbf16, #dev> {
    %d = "ttnn.get_device"() <{mesh_offset = #ttnn<mesh_offset 0x0>, mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %0 = "ttnn.capture_or_execute_trace"(%d, %arg0, %arg1) <{allocate_slots_callee = @allocate_slots, capture_callee = @capture, execute_callee = @execute, operandSegmentSizes = array<i32: 1, 2, 0>}> : (!ttnn.device, tensor<32x64xbf16, #host>, tensor<32x64xbf16, #host>) -> tensor<32x64xbf16, #dev>
    return %0 : tensor<32x64xbf16, #dev>
  }
}
