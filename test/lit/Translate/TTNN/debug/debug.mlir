// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s
// RUN: rm -rf %t.dir && mkdir %t.dir && cd %t.dir && env PYTHONBREAKPOINT=0 ttrt run %t.ttnn 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: FileCheck %s --check-prefix=MEMORY --input-file=%t.dir/debug_memory.txt
// The binary holds the debug ops as they were lowered, and the runtime runs them.

// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.sigmoid": 1
// CHECK-NEXT: "debug.annotate": 1
// CHECK-NEXT: "debug.breakpoint": 1
// CHECK-NEXT: "debug.print": 1
// CHECK-NEXT: "debug.memory_snapshot": 1
// CHECK-NEXT: "debug.region_start": 1
// CHECK-NEXT: "ttnn.exp": 1
// CHECK: "debug.region_end": 1

// RUNTIME: ttrt: debug.breakpoint at op 2
// RUNTIME-NEXT: RuntimeTTNN | INFO | after the sigmoid
// RUNTIME: .ttnn: PASS

// the input and the sigmoid's result live in DRAM (a 32x32 f32 tile each, 4 KiB on one bank)
// MEMORY: Device DRAM memory state: MemoryView{numBanks: 12, totalBytesPerBank: 1023.999 MB, totalBytesAllocatedPerBank: 0.008 MB,
// MEMORY-NEXT: Device L1 memory state: MemoryView{numBanks: 64,
// MEMORY-NEXT: Device L1_SMALL memory state: MemoryView{numBanks: 64, totalBytesPerBank: 0.031 MB,
// MEMORY-NEXT: Device TRACE memory state: MemoryView{numBanks: 12,
module {
  func.func @debug(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %0 = "ttir.sigmoid"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %1 = "debug.annotate"(%0) <{annotation = "kv"}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    "debug.breakpoint"(%1) : (tensor<32x32xf32>) -> ()
    "debug.print"(%1) <{message = "after the sigmoid"}> : (tensor<32x32xf32>) -> ()
    "debug.memory_snapshot"(%1) <{file_path = "debug_memory.txt"}> : (tensor<32x32xf32>) -> ()
    %2 = "debug.region_start"(%1) <{region_id = "r"}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %3 = "ttir.exp"(%2) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %4 = "debug.region_end"(%3) <{region_id = "r"}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    return %4 : tensor<32x32xf32>
  }
}
