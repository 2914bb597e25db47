// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | FileCheck %s
// The debug ops survive the backend pipeline: laid out like the TTNN ops around them, the ones with an effect
// kept, dump lowered to ttnn.dump_tensor, and a tensor freed only after the last use of any of its names.

module {
  // CHECK-LABEL: func.func @debug_in_pipeline
  func.func @debug_in_pipeline(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
    // CHECK: %[[SIG:.*]] = "ttnn.sigmoid"(%arg0)
    %0 = "ttir.sigmoid"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // CHECK-NEXT: %[[ANN:.*]] = "debug.annotate"(%[[SIG]]) <{annotation = "kv"}> : (tensor<32x32xf32, #ttnn_layout>) -> tensor<32x32xf32, #ttnn_layout>
    %1 = "debug.annotate"(%0) <{annotation = "kv"}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // CHECK-NEXT: "debug.breakpoint"(%[[ANN]]) : (tensor<32x32xf32, #ttnn_layout>) -> ()
    "debug.breakpoint"(%1) : (tensor<32x32xf32>) -> ()
    // CHECK-NEXT: "debug.print"(%[[ANN]]) <{message = "here"}>
    "debug.print"(%1) <{message = "here"}> : (tensor<32x32xf32>) -> ()
    // CHECK-NEXT: "debug.memory_snapshot"(%[[ANN]]) <{file_path = "memory.txt"}>
    "debug.memory_snapshot"(%1) <{file_path = "memory.txt"}> : (tensor<32x32xf32>) -> ()
    // CHECK-NEXT: "ttnn.dump_tensor"(%[[ANN]]) <{file_path = "t.tensorbin"}> : (tensor<32x32xf32, #ttnn_layout>) -> ()
    "debug.dump"(%1) <{file_path = "t.tensorbin"}> : (tensor<32x32xf32>) -> ()
    // CHECK-NEXT: %[[START:.*]] = "debug.region_start"(%[[ANN]]) <{region_id = "r"}>
    %2 = "debug.region_start"(%1) <{region_id = "r"}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // CHECK-NEXT: %[[EXP:.*]] = "ttnn.exp"(%[[START]])
    %3 = "ttir.exp"(%2) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // the sigmoid's tensor is freed once, after its last name (the region start) was read
    // CHECK-NEXT: "ttnn.deallocate"(%[[SIG]])
    // CHECK-NEXT: %[[END:.*]] = "debug.region_end"(%[[EXP]]) <{region_id = "r"}>
    %4 = "debug.region_end"(%3) <{region_id = "r"}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // a pure debug op nothing reads is dead code, as any pure op
    // CHECK-NOT: "debug.snapshot"
    %5 = "debug.snapshot"(%4) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // the returned tensor is never freed, under any of its names
    // CHECK-NOT: "ttnn.deallocate"
    // CHECK: return %[[END]]
    return %4 : tensor<32x32xf32>
  }
}
