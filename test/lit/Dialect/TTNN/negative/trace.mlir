// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s
// The trace ops' verifiers: command queues, trace ids, in-place copies, and capture_or_execute_trace's callees.

#dram = #ttnn.buffer_type<dram>
#dev = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
module {
  func.func @second_queue_is_the_last(%id: tensor<ui32, #ttnn.trace_id>) {
    %d = "ttnn.get_device"() : () -> !ttnn.device
    // expected-error @+1 {{'ttnn.execute_trace' op Invalid CQ ID 2}}
    "ttnn.execute_trace"(%d, %id) <{cq_id = 2 : ui32}> : (!ttnn.device, tensor<ui32, #ttnn.trace_id>) -> ()
    return
  }
}

// -----
module {
  func.func @signed_id() {
    %d = "ttnn.get_device"() : () -> !ttnn.device
    // expected-error @+1 {{Trace ID must be unsigned}}
    %id = "ttnn.begin_trace_capture"(%d) : (!ttnn.device) -> tensor<si32, #ttnn.trace_id>
    return
  }
}

// -----
module {
  func.func @id_without_encoding(%id: tensor<ui32>) {
    %d = "ttnn.get_device"() : () -> !ttnn.device
    // expected-error @+1 {{Trace ID must have the TraceIdAttr encoding}}
    "ttnn.end_trace_capture"(%d, %id) : (!ttnn.device, tensor<ui32>) -> ()
    return
  }
}

// -----
#dram = #ttnn.buffer_type<dram>
#dev = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
module {
  func.func @write_from_device(%a: tensor<64x64xf32, #dev>, %b: tensor<64x64xf32, #dev>) {
    // expected-error @+1 {{'ttnn.write_tensor' op Host tensor must be on system memory}}
    "ttnn.write_tensor"(%a, %b) : (tensor<64x64xf32, #dev>, tensor<64x64xf32, #dev>) -> ()
    return
  }
}

// -----
#dram = #ttnn.buffer_type<dram>
#dev = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#wide = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
module {
  func.func @copy_across_shapes(%a: tensor<64x64xf32, #dev>, %b: tensor<64x128xf32, #wide>) {
    // expected-error @+1 {{'ttnn.copy' op Source and destination tensor types must match, but got tensor<64x64xf32}}
    "ttnn.copy"(%a, %b) : (tensor<64x64xf32, #dev>, tensor<64x128xf32, #wide>) -> ()
    return
  }
}

// -----
#dram = #ttnn.buffer_type<dram>
#dev = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
module {
  func.func private @body(%a: tensor<64x64xf32, #dev>, %out: tensor<64x64xf32, #dev>) -> tensor<64x64xf32, #dev> {
    %0 = "ttnn.relu"(%a) : (tensor<64x64xf32, #dev>) -> tensor<64x64xf32, #dev>
    return %0 : tensor<64x64xf32, #dev>
  }
  func.func private @slots(%a: tensor<64x64xf32, #dev>) -> (tensor<64x64xf32, #dev>, tensor<64x64xf32, #dev>) {
    return %a, %a : tensor<64x64xf32, #dev>, tensor<64x64xf32, #dev>
  }
  func.func private @capture(%a: tensor<64x64xf32, #dev>, %out: tensor<64x64xf32, #dev>) -> tensor<ui32, #ttnn.trace_id> {
    %d = "ttnn.get_device"() : () -> !ttnn.device
    %id = "ttnn.begin_trace_capture"(%d) : (!ttnn.device) -> tensor<ui32, #ttnn.trace_id>
    %0 = call @body(%a, %out) : (tensor<64x64xf32, #dev>, tensor<64x64xf32, #dev>) -> tensor<64x64xf32, #dev>
    "ttnn.end_trace_capture"(%d, %id) : (!ttnn.device, tensor<ui32, #ttnn.trace_id>) -> ()
    return %id : tensor<ui32, #ttnn.trace_id>
  }
  func.func private @execute(%id: tensor<ui32, #ttnn.trace_id>) {
    return
  }
  func.func @trace_body_returns(%a: tensor<64x64xf32, #dev>) -> tensor<64x64xf32, #dev> {
    %d = "ttnn.get_device"() : () -> !ttnn.device
    // expected-error @+1 {{'ttnn.capture_or_execute_trace' op Trace function 'body' must return no results; it stores its outputs into the output slot arguments}}
    %0 = "ttnn.capture_or_execute_trace"(%d, %a) <{allocate_slots_callee = @slots, capture_callee = @capture, execute_callee = @execute, operandSegmentSizes = array<i32: 1, 1, 0>}> : (!ttnn.device, tensor<64x64xf32, #dev>) -> tensor<64x64xf32, #dev>
    return %0 : tensor<64x64xf32, #dev>
  }
}

// -----
#dram = #ttnn.buffer_type<dram>
#dev = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
module {
  func.func private @slots(%a: tensor<64x64xf32, #dev>) -> (tensor<64x64xf32, #dev>, tensor<64x64xf32, #dev>) {
    return %a, %a : tensor<64x64xf32, #dev>, tensor<64x64xf32, #dev>
  }
  func.func @device_inputs_are_their_own_slots(%a: tensor<64x64xf32, #dev>) -> tensor<64x64xf32, #dev> {
    %d = "ttnn.get_device"() : () -> !ttnn.device
    // expected-error @+1 {{'ttnn.capture_or_execute_trace' op 'missing' does not reference a function}}
    %0 = "ttnn.capture_or_execute_trace"(%d, %a) <{allocate_slots_callee = @slots, capture_callee = @missing, execute_callee = @slots, operandSegmentSizes = array<i32: 1, 1, 0>}> : (!ttnn.device, tensor<64x64xf32, #dev>) -> tensor<64x64xf32, #dev>
    return %0 : tensor<64x64xf32, #dev>
  }
}
