// RUN: ttmlir-opt %s | FileCheck %s
// Every debug op parses, verifies and prints back in generic form; printing is a fixed point.
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

module {
  // CHECK-LABEL: func.func @debug_ops
  func.func @debug_ops(%arg0: tensor<32x32xf32>, %arg1: tensor<32x32xf32>) -> tensor<32x32xbf16> {
    // CHECK: %0 = "debug.annotate"(%arg0) <{annotation = "This is from KV cache"}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %0 = "debug.annotate"(%arg0) <{annotation = "This is from KV cache"}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // CHECK: "debug.breakpoint"(%0) : (tensor<32x32xf32>) -> ()
    "debug.breakpoint"(%0) : (tensor<32x32xf32>) -> ()
    // CHECK: "debug.print"(%0) <{message = "execution has reached here"}> : (tensor<32x32xf32>) -> ()
    "debug.print"(%0) <{message = "execution has reached here"}> : (tensor<32x32xf32>) -> ()
    // CHECK: "debug.dump"(%0) <{file_path = "add0_dump.tensorbin"}> : (tensor<32x32xf32>) -> ()
    "debug.dump"(%0) <{file_path = "add0_dump.tensorbin"}> : (tensor<32x32xf32>) -> ()
    // CHECK: "debug.memory_snapshot"(%0) <{file_path = "memory_dump.txt"}> : (tensor<32x32xf32>) -> ()
    "debug.memory_snapshot"(%0) <{file_path = "memory_dump.txt"}> : (tensor<32x32xf32>) -> ()
    // CHECK: %1 = "debug.region_start"(%0) <{region_id = "embedding_region"}>
    %1 = "debug.region_start"(%0) <{region_id = "embedding_region"}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // CHECK: %2 = "debug.region_end"(%1) <{region_id = "embedding_region"}>
    %2 = "debug.region_end"(%1) <{region_id = "embedding_region"}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // CHECK: %3 = "debug.overwrite"(%2, %arg1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %3 = "debug.overwrite"(%2, %arg1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    // CHECK: %4 = "debug.snapshot"(%3)
    %4 = "debug.snapshot"(%3) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // CHECK: %5 = "debug.begin_trace"(%4) <{trace_id = "trace0"}>
    %5 = "debug.begin_trace"(%4) <{trace_id = "trace0"}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // CHECK: %6 = "debug.end_trace"(%5) <{trace_id = "trace0"}>
    %6 = "debug.end_trace"(%5) <{trace_id = "trace0"}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // CHECK: %7 = "debug.profiler_start"(%6) <{scope_id = "scope0"}>
    %7 = "debug.profiler_start"(%6) <{scope_id = "scope0"}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // CHECK: %8 = "debug.profiler_end"(%7) <{scope_id = "scope0"}>
    %8 = "debug.profiler_end"(%7) <{scope_id = "scope0"}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // CHECK: %9 = "debug.timestamp"(%8)
    %9 = "debug.timestamp"(%8) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // CHECK: %10 = "debug.hook"(%9)
    %10 = "debug.hook"(%9) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %11 = "ttir.typecast"(%10) : (tensor<32x32xf32>) -> tensor<32x32xbf16>
    return %11 : tensor<32x32xbf16>
  }
}
