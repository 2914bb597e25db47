// RUN: not ttmlir-opt --split-input-file %s 2>&1 | FileCheck %s
// Collectives are verified as upstream's TTIR verifies them.

// CHECK: error: 'ttir.all_gather' op Invalid dimension for all gather op. Gather dimension must be >= to input tensor rank or < -input tensor rank, got gather_dim = 2
func.func @gather_dim_past_rank(%arg0: tensor<32x64xbf16>) -> tensor<32x128xbf16> {
  %0 = "ttir.all_gather"(%arg0) <{all_gather_dim = 2 : si32, cluster_axis = 1 : ui32}> : (tensor<32x64xbf16>) -> tensor<32x128xbf16>
  return %0 : tensor<32x128xbf16>
}

// -----
// CHECK: error: 'ttir.all_reduce' op Invalid reduction type for all reduce op.
func.func @all_reduce_by_max(%arg0: tensor<32x64xbf16>) -> tensor<32x64xbf16> {
  %0 = "ttir.all_reduce"(%arg0) <{cluster_axis = 0 : ui32, reduce_type = #ttcore.reduce_type<max>}> : (tensor<32x64xbf16>) -> tensor<32x64xbf16>
  return %0 : tensor<32x64xbf16>
}

// -----
// CHECK: error: 'ttir.reduce_scatter' op Invalid reduction type for reduce scatter op.
func.func @reduce_scatter_by_mean(%arg0: tensor<32x64xbf16>) -> tensor<32x32xbf16> {
  %0 = "ttir.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<mean>, scatter_dim = 1 : si32}> : (tensor<32x64xbf16>) -> tensor<32x32xbf16>
  return %0 : tensor<32x32xbf16>
}

// -----
// CHECK: error: 'ttir.reduce_scatter' op Invalid dimension for reduce scatter op. Scatter dimension must be >= to input tensor rank or < -input tensor rank, got scatter_dim = -3
func.func @scatter_dim_before_rank(%arg0: tensor<32x64xbf16>) -> tensor<32x32xbf16> {
  %0 = "ttir.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = -3 : si32}> : (tensor<32x64xbf16>) -> tensor<32x32xbf16>
  return %0 : tensor<32x32xbf16>
}

// -----
// CHECK: error: 'ttir.collective_permute' op The rank of source target pairs must be 2, got rank = 1
func.func @flat_pairs(%arg0: tensor<32x64xbf16>) -> tensor<32x64xbf16> {
  %0 = "ttir.collective_permute"(%arg0) <{source_target_pairs = dense<[1, 0]> : tensor<2xi64>}> : (tensor<32x64xbf16>) -> tensor<32x64xbf16>
  return %0 : tensor<32x64xbf16>
}

// -----
// CHECK: error: 'ttir.collective_permute' op There are duplicate 'src' or 'dest' devices in source target pairs
func.func @two_sources_one_target(%arg0: tensor<32x64xbf16>) -> tensor<32x64xbf16> {
  %0 = "ttir.collective_permute"(%arg0) <{source_target_pairs = dense<[[0, 3], [1, 3]]> : tensor<2x2xi64>}> : (tensor<32x64xbf16>) -> tensor<32x64xbf16>
  return %0 : tensor<32x64xbf16>
}

// -----
// CHECK: error: 'ttir.mesh_partition' op Invalid tensor dimension for mesh partition op. Dimension must be >= to input tensor rank or < -input tensor rank, got dim = 2
func.func @partition_dim_past_rank(%arg0: tensor<32x64xbf16>) -> tensor<32x32xbf16> {
  %0 = "ttir.mesh_partition"(%arg0) <{cluster_axis = 1 : ui32, dim = 2 : si32}> : (tensor<32x64xbf16>) -> tensor<32x32xbf16>
  return %0 : tensor<32x32xbf16>
}

// -----
// CHECK: error: 'ttir.distributed_rms_norm' op weight tensor's last dimension must match input's last dimension
func.func @norm_weight_too_wide(%arg0: tensor<32x64xbf16>, %arg1: tensor<128xbf16>) -> tensor<32x64xbf16> {
  %0 = "ttir.distributed_rms_norm"(%arg0, %arg1) <{cluster_axis = 0 : ui32, epsilon = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<32x64xbf16>, tensor<128xbf16>) -> tensor<32x64xbf16>
  return %0 : tensor<32x64xbf16>
}
