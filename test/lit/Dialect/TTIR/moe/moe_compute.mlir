// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% mesh-shape=1,2" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=EXEC

// The raw weights are packed on the device, biases in a tile row below each matrix (w0|w1 side by side); the
// combine's output buffer and semaphore are made in the prelude, right after the device.
// CHECK-LABEL: func.func @experts
// CHECK: %[[DEV:[0-9]+]] = "ttnn.get_device"
// CHECK-NEXT: %[[SEM:[0-9]+]] = "ttnn.allocate_moe_compute_semaphore"(%[[DEV]])
// CHECK-SAME: <{hidden_size = 64 : ui32, initial_value = 0 : ui32, mux_core_range_set = #ttnn.core_range_set<[#ttnn.core_range<(1,1), (3,3)>]>, output_height_shard_dim = 2 : ui32}>
// CHECK-SAME: -> !ttnn.global_semaphore
// CHECK-NEXT: %[[OUT:[0-9]+]] = "ttnn.empty"(%[[DEV]])
// CHECK-SAME: shape = #ttnn.shape<2x32x64>
// CHECK: %[[W01:[0-9]+]] = "ttnn.prepare_moe_compute_w0_w1_weights"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[DEV]])
// CHECK-SAME: hidden_size = 64 : ui32, intermediate_size = 32 : ui32
// CHECK-SAME: -> tensor<1x2x96x64xbf16
// CHECK: %[[W2:[0-9]+]] = "ttnn.prepare_moe_compute_w2_weights"(%{{.*}}, %{{.*}}, %[[DEV]])
// CHECK-SAME: -> tensor<1x2x64x64xbf16
// CHECK: %[[R:[0-9]+]] = "ttnn.moe_compute"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[W01]], %[[W2]], %[[OUT]], %[[SEM]], %[[DEV]])
// CHECK-SAME: activation_function = #ttcore.moe_activation_function<swiglu>
// CHECK-SAME: has_bias = true
// CHECK-SAME: operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1>
// CHECK-SAME: -> tensor<2x32x64xbf16
// The result is the buffer: one tensor, freed once, after the result's last use.
// CHECK-NOT: "ttnn.deallocate"(%[[OUT]])
// CHECK-NOT: "ttnn.deallocate"(%[[R]])
// CHECK: "ttnn.to_layout"(%[[R]])
// CHECK-NEXT: "ttnn.deallocate"(%[[OUT]])
// CHECK-NOT: "ttnn.deallocate"(%[[R]])
// EXEC: PASS
module {
  func.func @experts(%x: tensor<1x64x64xbf16>, %i: tensor<1x64x2xi32>, %s: tensor<1x64x2xbf16>, %m: tensor<1x4xi32>, %w0: tensor<1x2x64x32xbf16>, %w1: tensor<1x2x64x32xbf16>, %w2: tensor<1x2x32x64xbf16>, %b0: tensor<1x2x32xbf16>, %b1: tensor<1x2x32xbf16>, %b2: tensor<1x2x64xbf16>) -> tensor<2x32x64xbf16> {
    %0 = "ttir.moe_compute"(%x, %i, %s, %m, %w0, %w1, %w2, %b0, %b1, %b2) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1>, layer_id = 0 : ui32, output_height_shard_dim = 2 : ui32, intermediate_size = 32 : ui32, activation_function = #ttcore.moe_activation_function<swiglu>, cluster_axis = 1 : ui32}> : (tensor<1x64x64xbf16>, tensor<1x64x2xi32>, tensor<1x64x2xbf16>, tensor<1x4xi32>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32xbf16>, tensor<1x2x32xbf16>, tensor<1x2x64xbf16>) -> tensor<2x32x64xbf16>
    return %0 : tensor<2x32x64xbf16>
  }
}
