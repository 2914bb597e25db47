// RUN: ttmlir-opt --ttcore-register-device --d2m-allocate %s | FileCheck %s
// RUN: not ttmlir-opt --ttcore-register-device "--d2m-allocate=test-assume-l1-capacity=8192" %s 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: ttmlir-opt --ttcore-register-device "--d2m-allocate=available-l1-addr-range=65536,131072" %s | FileCheck %s --check-prefix=RANGE
// d2m-allocate gives each L1 and DRAM buffer an address and an alignment: first fit in program order, a buffer's
// bytes (per core in L1, per bank in DRAM) free after its last use, when it is also deallocated; a buffer
// returned stays, one already placed keeps its address, a function whose buffers do not fit is refused.

!l1 = memref<2x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #ttcore.memory_space<l1>>
!dram = memref<1x1x6x4x!ttcore.tile<32x32, bf16>, #ttcore.interleaved<8192x2048>, #ttcore.memory_space<dram>>

// CHECK-LABEL: func.func @reuse
func.func @reuse() -> !l1 {
  // CHECK: %[[A:.*]] = memref.alloc() {address = 1024 : i64, alignment = 16 : i64}
  %a = memref.alloc() : !l1
  // CHECK: %[[B:.*]] = memref.alloc() {address = 17408 : i64, alignment = 16 : i64}
  %b = memref.alloc() : !l1
  // CHECK: memref.copy %[[A]], %[[B]]
  // CHECK-NEXT: memref.dealloc %[[A]]
  "memref.copy"(%a, %b) : (!l1, !l1) -> ()
  // CHECK: %[[C:.*]] = memref.alloc() {address = 1024 : i64, alignment = 64 : i64}
  %c = memref.alloc() {alignment = 64 : i64} : !l1
  // CHECK: memref.copy %[[B]], %[[C]]
  // CHECK-NEXT: memref.dealloc %[[B]]
  "memref.copy"(%b, %c) : (!l1, !l1) -> ()
  // CHECK-NOT: memref.dealloc %[[C]]
  return %c : !l1
}

// CHECK-LABEL: func.func @placed_and_loops
func.func @placed_and_loops(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: memref.alloc() {address = 1024 : i64, alignment = 16 : i64}
  %fixed = memref.alloc() {address = 1024 : i64} : !l1
  // CHECK: %[[OUTER:.*]] = memref.alloc() {address = 17408 : i64, alignment = 16 : i64}
  %outer = memref.alloc() : !l1
  // CHECK: memref.alloc() {address = 1024 : i64, alignment = 32 : i64} : memref<1x1x6x4x!ttcore.tile<32x32, bf16>
  %d0 = memref.alloc() : !dram
  // 6x4 bf16 tiles over 12 banks: 2 tiles of 2048 B each
  // CHECK: memref.alloc() {address = 5120 : i64, alignment = 32 : i64} : memref<1x1x6x4x!ttcore.tile<32x32, bf16>
  %d1 = memref.alloc() : !dram
  "memref.copy"(%d0, %d1) : (!dram, !dram) -> ()
  // CHECK: scf.for
  scf.for %i = %c0 to %n step %c1 {
    // CHECK: memref.alloc() {address = 33792 : i64, alignment = 16 : i64}
    %inner = memref.alloc() : !l1
    "memref.copy"(%outer, %inner) : (!l1, !l1) -> ()
    "memref.copy"(%fixed, %inner) : (!l1, !l1) -> ()
  }
  // CHECK: memref.dealloc %[[OUTER]]
  return
}

// SMALL: error: 'func.func' op required L1 memory usage 32768 exceeds memory capacity 8192

// RANGE-LABEL: func.func @reuse
// RANGE: memref.alloc() {address = 65536 : i64
// RANGE: memref.alloc() {address = 81920 : i64

// RUN: not ttmlir-opt --ttcore-register-device --d2m-allocate %S/allocate_dynamic_negative.mlir 2>&1 | FileCheck %S/allocate_dynamic_negative.mlir
