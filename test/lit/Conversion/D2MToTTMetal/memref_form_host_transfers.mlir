// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttmetal %s | FileCheck %s
// Host transfers of a memref-form function: d2m.to_device writes the host buffer into its device buffer
// (enqueue_write_buffer), d2m.to_host reads a device buffer back into a host one (enqueue_read_buffer, then a
// finish: the host waits for the read before the data is used); a view of either buffer moves the buffer under it.
// The host buffer the result is read into stays a host allocation; a device buffer on a virtual grid is created
// with its grid mappings.

#l1 = #ttcore.memory_space<l1>
#layout = #ttcore.metal_layout<logical_shape = 64x128, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
#fwd = affine_map<(d0, d1, d2, d3) -> (0, d0 * 4 + d1, d2, d3)>
#inv = affine_map<(d0, d1) -> (0, d0 floordiv 4, d0 mod 4)>
!dev = memref<2x4x32x32xf32, #ttcore.shard<128x4, 1>, #l1>

// CHECK-LABEL: func.func @round_trip
// CHECK-SAME: (%[[HOST:.*]]: memref<64x128xf32>) -> memref<64x128xf32>
// CHECK: %[[DEV:.*]] = "ttmetal.create_buffer"() <{address = 1024 : i64, virtualGridForwardMapping = #{{.*}}, virtualGridInverseMapping = #{{.*}}}> : () -> memref<2x4x32x32xf32, #ttcore.shard<128x4, 1>, #l1>
// CHECK-NEXT: "ttmetal.enqueue_write_buffer"(%[[HOST]], %[[DEV]]) : (memref<64x128xf32>, memref<2x4x32x32xf32, #ttcore.shard<128x4, 1>, #l1>) -> ()
// CHECK-NEXT: %[[RESULT:.*]] = memref.alloc() : memref<64x128xf32>
// CHECK-NEXT: "ttmetal.enqueue_read_buffer"(%[[DEV]], %[[RESULT]]) : (memref<2x4x32x32xf32, #ttcore.shard<128x4, 1>, #l1>, memref<64x128xf32>) -> ()
// CHECK-NEXT: "ttmetal.finish"() : () -> ()
// CHECK-NEXT: "ttmetal.deallocate_buffer"(%[[DEV]])
// CHECK-NEXT: return %[[RESULT]]
// CHECK-NOT: d2m.
func.func @round_trip(%host: memref<64x128xf32>) -> memref<64x128xf32> {
  %dev = memref.alloc() {address = 1024 : i64, alignment = 16 : i64, d2m.virtualGridForwardMapping = #fwd, d2m.virtualGridInverseMapping = #inv} : !dev
  d2m.to_device %host, %dev layout = #layout : memref<64x128xf32> into !dev
  %result = memref.alloc() : memref<64x128xf32>
  %view = d2m.view_layout %dev remapping = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)> : !dev -> memref<2x4x32x32xf32, #ttcore.view<4>, #l1>
  d2m.to_host %view, %result layout = #layout : memref<2x4x32x32xf32, #ttcore.view<4>, #l1> into memref<64x128xf32>
  memref.dealloc %dev : !dev
  return %result : memref<64x128xf32>
}
