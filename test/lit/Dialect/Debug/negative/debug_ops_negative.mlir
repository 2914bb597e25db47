// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

func.func @annotate_retypes(%arg0: tensor<32x32xf32>) -> tensor<32x32xbf16> {
  // expected-error @+1 {{'debug.annotate' op requires the same type for all operands and results}}
  %0 = "debug.annotate"(%arg0) <{annotation = "x"}> : (tensor<32x32xf32>) -> tensor<32x32xbf16>
  return %0 : tensor<32x32xbf16>
}

// -----
func.func @region_start_reshapes(%arg0: tensor<32x32xf32>) -> tensor<1x1024xf32> {
  // expected-error @+1 {{'debug.region_start' op requires the same type for all operands and results}}
  %0 = "debug.region_start"(%arg0) <{region_id = "r"}> : (tensor<32x32xf32>) -> tensor<1x1024xf32>
  return %0 : tensor<1x1024xf32>
}

// -----
func.func @print_without_message(%arg0: tensor<32x32xf32>) {
  // expected-error @+1 {{'debug.print' op requires attribute 'message'}}
  "debug.print"(%arg0) : (tensor<32x32xf32>) -> ()
  return
}

// -----
func.func @memory_snapshot_path_not_a_string(%arg0: tensor<32x32xf32>) {
  // expected-error @+1 {{'debug.memory_snapshot' op attribute 'file_path' failed to satisfy constraint: string attribute}}
  "debug.memory_snapshot"(%arg0) <{file_path = 3 : i32}> : (tensor<32x32xf32>) -> ()
  return
}

// -----
func.func @breakpoint_with_result(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
  // expected-error @+1 {{'debug.breakpoint' op requires zero results}}
  %0 = "debug.breakpoint"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}

// -----
func.func @breakpoint_on_a_scalar(%arg0: f32) {
  // expected-error @+1 {{'debug.breakpoint' op operand #0 must be ranked tensor of any type values, but got 'f32'}}
  "debug.breakpoint"(%arg0) : (f32) -> ()
  return
}

// -----
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
func.func @dump_tensor_needs_tensorbin(%arg0: tensor<32x32xf32, #ttnn_layout>) {
  // expected-error @+1 {{'ttnn.dump_tensor' op file out.pt must end with .tensorbin extension}}
  "ttnn.dump_tensor"(%arg0) <{file_path = "out.pt"}> : (tensor<32x32xf32, #ttnn_layout>) -> ()
  return
}
