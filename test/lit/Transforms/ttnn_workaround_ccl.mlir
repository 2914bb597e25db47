// RUN: ttmlir-opt --split-input-file --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% mesh-shape=1,2" %s | FileCheck %s
// Collectives as tt-metal's kernels take them: all_reduce on 4D tensors, all_gather on no 1D one, reduce_scatter
// summing in f32; a collective along a mesh axis of one chip exchanges nothing and is folded away.

// CHECK-LABEL: func.func @all_reduce_of_a_matrix
// CHECK: %[[IN:.*]] = "ttnn.reshape"(%arg0) <{shape = [1 : i32, 1 : i32, 32 : i32, 64 : i32]}>
// CHECK: %[[R:.*]] = "ttnn.all_reduce"(%[[IN]])
// CHECK: "ttnn.reshape"(%[[R]]) <{shape = [32 : i32, 64 : i32]}>
func.func @all_reduce_of_a_matrix(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %0 = "ttir.all_reduce"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
}

// -----
// CHECK-LABEL: func.func @all_gather_of_a_vector
// CHECK: %[[IN:.*]] = "ttnn.reshape"(%arg0) <{shape = [1 : i32, 32 : i32]}>
// CHECK: %[[G:.*]] = "ttnn.all_gather"(%[[IN]]) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}>
// CHECK: "ttnn.reshape"(%[[G]]) <{shape = [64 : i32]}>
func.func @all_gather_of_a_vector(%arg0: tensor<32xf32>) -> tensor<64xf32> {
  %0 = "ttir.all_gather"(%arg0) <{all_gather_dim = 0 : si32, cluster_axis = 1 : ui32}> : (tensor<32xf32>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----
// CHECK-LABEL: func.func @reduce_scatter
// CHECK: "ttnn.reduce_scatter"{{.*}}compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, math_approx_mode = false, fp32_dest_acc_en = true, packer_l1_acc = false>
func.func @reduce_scatter(%arg0: tensor<1x1x32x64xf32>) -> tensor<1x1x32x32xf32> {
  %0 = "ttir.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 3 : si32}> : (tensor<1x1x32x64xf32>) -> tensor<1x1x32x32xf32>
  return %0 : tensor<1x1x32x32xf32>
}

// -----
// Mesh axis 0 has one chip.
// CHECK-LABEL: func.func @along_one_chip
// CHECK-NOT: "ttnn.all_reduce"
// CHECK-NOT: "ttnn.all_gather"
// CHECK: return %arg0
func.func @along_one_chip(%arg0: tensor<1x1x32x64xf32>) -> tensor<1x1x32x64xf32> {
  %0 = "ttir.all_reduce"(%arg0) <{cluster_axis = 0 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<1x1x32x64xf32>) -> tensor<1x1x32x64xf32>
  %1 = "ttir.all_gather"(%0) <{all_gather_dim = 3 : si32, cluster_axis = 0 : ui32}> : (tensor<1x1x32x64xf32>) -> tensor<1x1x32x64xf32>
  return %1 : tensor<1x1x32x64xf32>
}
