// RUN: ttmlir-opt --ttcore-register-device="mesh-shape=1,2 mesh-topology=ring,disabled" --ttnn-configure-ccl-ops --ttnn-workaround --ttnn-allocate-distributed-op-buffers --ttnn-allocate-distributed-op-semaphores %s | FileCheck %s
// RUN: not ttmlir-opt --ttcore-register-device="mesh-shape=1,2 mesh-topology=ring" %s 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not ttmlir-opt --ttcore-register-device="mesh-shape=1,2 mesh-topology=ring,torus" %s 2>&1 | FileCheck %s --check-prefix=KIND
// The device's per-axis topology reaches the CCL ops (cluster axis a takes meshTopology[rank - 1 - a]); the fused
// distributed rms_norm gets its width-sharded L1 input, row-major weight, its stats tile and its semaphore.

// COUNT: error: expected meshTopology size to match meshShape rank
// KIND: error: mesh-topology is a list of ring, linear, disabled, not 'torus'

#dram = #ttnn.buffer_type<dram>
#x = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<1x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#w = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>

// CHECK-DAG: #[[SHARDED:.*]] = #ttnn.ttnn_layout<{{.*}}<1x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,0)>]>>
// CHECK-DAG: #[[STATS:.*]] = #ttnn.ttnn_layout<{{.*}}memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (0,0)>]>>
// CHECK-DAG: #[[ROWS:.*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x32xbf16, #dram>, <interleaved>>
module {
  // CHECK-LABEL: func.func @gather
  func.func @gather(%a: tensor<1x1x32x32xbf16>) -> (tensor<1x1x32x64xbf16>, tensor<1x1x64x32xbf16>) {
    // CHECK: "ttnn.all_gather"{{.*}}cluster_axis = 1 : ui32, topology = #ttcore.topology<ring>}>
    %0 = "ttnn.all_gather"(%a) <{all_gather_dim = 3 : si32, cluster_axis = 1 : ui32}> : (tensor<1x1x32x32xbf16>) -> tensor<1x1x32x64xbf16>
    // a disabled axis sets no topology
    // CHECK: "ttnn.all_gather"(%arg0) <{all_gather_dim = 2 : si32, cluster_axis = 0 : ui32}>
    %1 = "ttnn.all_gather"(%a) <{all_gather_dim = 2 : si32, cluster_axis = 0 : ui32}> : (tensor<1x1x32x32xbf16>) -> tensor<1x1x64x32xbf16>
    return %0, %1 : tensor<1x1x32x64xbf16>, tensor<1x1x64x32xbf16>
  }

  // CHECK-LABEL: func.func @rms
  func.func @rms(%x: tensor<1x1x32x256xbf16, #x>, %w: tensor<8x32xbf16, #w>) -> tensor<1x1x32x256xbf16, #x> {
    // CHECK: %[[DEV:.*]] = "ttnn.get_device"
    // CHECK-NEXT: %[[SEM:.*]] = "ttnn.create_global_semaphore"(%[[DEV]]) <{core_range_set = #ttnn.core_range_set<[#ttnn.core_range<(0,0), (7,0)>]>, initial_value = 0 : ui32}>
    // CHECK-NEXT: %[[BUF:.*]] = "ttnn.empty"(%[[DEV]]) {{.*}} -> tensor<1x1x32x32xbf16, #[[STATS]]>
    // CHECK: %[[IN:.*]] = "ttnn.to_tensor_spec"(%arg0) {{.*}} -> tensor<1x1x32x256xbf16, #[[SHARDED]]>
    // CHECK: %[[W:.*]] = "ttnn.to_tensor_spec"(%arg1) {{.*}} -> tensor<8x32xbf16, #[[ROWS]]>
    // CHECK: %[[N:.*]] = "ttnn.distributed_rms_norm"(%[[IN]], %[[W]], %[[BUF]], %[[SEM]], %[[DEV]]) <{cluster_axis = 1 : ui32, compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi2, fp32_dest_acc_en = false>, {{.*}}operandSegmentSizes = array<i32: 1, 1, 0, 1, 1, 1>
    // CHECK: "ttnn.to_memory_config"(%[[N]]) {{.*}} -> tensor<1x1x32x256xbf16, #ttnn_layout{{[0-9]*}}>
    %d = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x2>}> : () -> !ttnn.device
    %0 = "ttnn.distributed_rms_norm"(%x, %w, %d) <{cluster_axis = 1 : ui32, epsilon = 1.0e-05 : f32, compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi2, fp32_dest_acc_en = false>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 1>}> : (tensor<1x1x32x256xbf16, #x>, tensor<8x32xbf16, #w>, !ttnn.device) -> tensor<1x1x32x256xbf16, #x>
    return %0 : tensor<1x1x32x256xbf16, #x>
  }
}
