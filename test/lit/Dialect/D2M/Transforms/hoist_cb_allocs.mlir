// RUN: ttmlir-opt --split-input-file --verify-diagnostics --allow-unregistered-dialect --d2m-hoist-cb-allocs %s | FileCheck %s
// A generic's allocated circular buffers move out as cb_layout buffers in its additionalArgs (freed after it, the
// last hoisted first), with their addresses and buffer counts; a scratch buffer has one buffer; operand aliases move
// out too. A region alloc that is no CB, or a CB without an address, is refused.

!tile = !ttcore.tile<32x32, bf16>
!src = memref<2x2x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>

// CHECK-LABEL: func.func @hoist
func.func @hoist(%a: !src, %out: !src) {
  // CHECK: %[[CB:.*]] = memref.alloc() {address = 2048 : i64, alignment = 16 : i64, d2m.synchronized_buffer = 2 : i64} : memref<2x3x!ttcore.tile<32x32, bf16>, #ttcore.cb_layout<6144x2048, 2>, #l1>
  // CHECK: %[[SCRATCH:.*]] = memref.alloc() {address = 4096 : i64, d2m.scratch_buffer} : memref<1x4x!ttcore.tile<32x32, bf16>, #ttcore.cb_layout<8192x2048, 1>, #l1>
  // CHECK: %[[AL:.*]] = d2m.operand_alias %{{.*}} : memref<2x2x1x1x{{.*}}> -> memref<1x1x
  // CHECK: d2m.generic
  // CHECK: additionalArgs(%[[CB]], %[[SCRATCH]], %[[AL]] :
  // CHECK-NOT: memref.alloc
  // CHECK: d2m.remote_load %[[AL]]
  // CHECK: d2m.scratch_init %[[SCRATCH]]
  // CHECK: "test.use"(%[[CB]])
  // CHECK: memref.dealloc %[[SCRATCH]]
  // CHECK-NEXT: memref.dealloc %[[CB]]
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%a : !src) outs(%out : !src) {
  ^unified0:
    %c0 = arith.constant 0 : index
    %cb = memref.alloc() {address = 2048 : i64, alignment = 16 : i64, d2m.synchronized_buffer = 2} : memref<2x3x!tile, #ttcore.memory_space<l1>>
    %scratch = memref.alloc() {address = 4096 : i64, d2m.scratch_buffer} : memref<1x4x!tile, #ttcore.memory_space<l1>>
    %al = d2m.operand_alias %a : !src -> memref<1x1x!tile, #ttcore.memory_space<l1>>
    d2m.remote_load %al %a[%c0, %c0] : memref<1x1x!tile, #ttcore.memory_space<l1>>, !src
    d2m.scratch_init %scratch : memref<1x4x!tile, #ttcore.memory_space<l1>>
    "test.use"(%cb) : (memref<2x3x!tile, #ttcore.memory_space<l1>>) -> ()
  }
  return
}

// -----

!tile = !ttcore.tile<32x32, bf16>
!src = memref<2x2x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>

func.func @no_address(%a: !src, %out: !src) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%a : !src) outs(%out : !src) {
  ^unified0:
    // expected-error @+1 {{synchronized buffer must have address attribute}}
    %cb = memref.alloc() {d2m.synchronized_buffer = 2} : memref<2x3x!tile, #ttcore.memory_space<l1>>
  }
  return
}

// -----

!tile = !ttcore.tile<32x32, bf16>
!src = memref<2x2x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>

func.func @not_a_cb(%a: !src, %out: !src) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%a : !src) outs(%out : !src) {
  ^unified0:
    // expected-error @+1 {{unexpected alloc op: expected d2m.scratch_buffer or d2m.synchronized_buffer attribute}}
    %cb = memref.alloc() : memref<2x3x!tile, #ttcore.memory_space<l1>>
  }
  return
}
