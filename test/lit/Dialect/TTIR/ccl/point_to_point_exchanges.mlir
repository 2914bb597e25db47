// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --split-input-file --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% mesh-shape=1,2" %s | FileCheck %s --check-prefix=TTNN
// Exchanges between chips named by chip ids become a copy of the input and point-to-point sends into it.

// CHECK-LABEL: func.func @collective_permute
// CHECK: "ttir.collective_permute"(%arg0) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}>
// TTNN-LABEL: func.func @collective_permute
// TTNN: %[[COPY:.*]] = "ttnn.assign"(%arg0)
// TTNN: %[[FIRST:.*]] = "ttnn.point_to_point"(%arg0, %[[COPY]]) <{receiver_coord = array<i64: 0, 1>, sender_coord = array<i64: 0, 0>}>
// TTNN: "ttnn.point_to_point"(%arg0, %[[FIRST]]) <{receiver_coord = array<i64: 0, 0>, sender_coord = array<i64: 0, 1>}>
func.func @collective_permute(%arg0: tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32> {
  %0 = "ttir.collective_permute"(%arg0) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32>
  return %0 : tensor<1x1x32x128xf32>
}

// -----
// A chip no pair targets gets zeros (the input clamped to [0, 0]) from another chip.
// TTNN-LABEL: func.func @permute_to_one_chip
// TTNN: %[[COPY:.*]] = "ttnn.assign"(%arg0)
// TTNN: %[[SENT:.*]] = "ttnn.point_to_point"(%arg0, %[[COPY]]) <{receiver_coord = array<i64: 0, 1>, sender_coord = array<i64: 0, 0>}>
// TTNN: %[[ZEROS:.*]] = "ttnn.clamp_scalar"(%arg0) <{max = 0.000000e+00 : f32, min = 0.000000e+00 : f32}>
// TTNN: "ttnn.point_to_point"(%[[ZEROS]], %[[SENT]]) <{receiver_coord = array<i64: 0, 0>, sender_coord = array<i64: 0, 1>}>
func.func @permute_to_one_chip(%arg0: tensor<32x128xf32>) -> tensor<32x128xf32> {
  %0 = "ttir.collective_permute"(%arg0) <{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<32x128xf32>) -> tensor<32x128xf32>
  return %0 : tensor<32x128xf32>
}

// -----
// TTNN-LABEL: func.func @broadcast_from_chip_1
// TTNN: %[[COPY:.*]] = "ttnn.assign"(%arg0)
// TTNN: "ttnn.point_to_point"(%arg0, %[[COPY]]) <{receiver_coord = array<i64: 0, 0>, sender_coord = array<i64: 0, 1>}>
func.func @broadcast_from_chip_1(%arg0: tensor<32x128xf32>) -> tensor<32x128xf32> {
  %0 = "ttir.collective_broadcast"(%arg0) <{replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}> : (tensor<32x128xf32>) -> tensor<32x128xf32>
  return %0 : tensor<32x128xf32>
}

// -----
// Groups of one chip send nothing: canonicalization folds the broadcast away.
// TTNN-LABEL: func.func @broadcast_within_one_chip
// TTNN-NOT: "ttnn.assign"
// TTNN: return %arg0
func.func @broadcast_within_one_chip(%arg0: tensor<32x128xf32>) -> tensor<32x128xf32> {
  %0 = "ttir.collective_broadcast"(%arg0) <{replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>}> : (tensor<32x128xf32>) -> tensor<32x128xf32>
  return %0 : tensor<32x128xf32>
}

// -----
// all_to_all: the input's pieces, each chip's own kept (assign), the other sent; the buffers joined.
// TTNN-LABEL: func.func @all_to_all
// TTNN: "ttnn.slice_static"{{.*}}begins = [0 : i32, 0 : i32], ends = [16 : i32, 128 : i32]
// TTNN: "ttnn.slice_static"{{.*}}begins = [16 : i32, 0 : i32], ends = [32 : i32, 128 : i32]
// TTNN: %[[B0:.*]] = "ttnn.assign"
// TTNN: %[[B1:.*]] = "ttnn.assign"
// TTNN: %[[S0:.*]] = "ttnn.point_to_point"({{.*}}, %[[B0]]) <{receiver_coord = array<i64: 0, 1>, sender_coord = array<i64: 0, 0>}>
// TTNN: %[[S1:.*]] = "ttnn.point_to_point"({{.*}}, %[[B1]]) <{receiver_coord = array<i64: 0, 0>, sender_coord = array<i64: 0, 1>}>
// TTNN: "ttnn.concat"(%[[S0]], %[[S1]]) <{dim = 1 : si32}>
func.func @all_to_all(%arg0: tensor<32x128xf32>) -> tensor<16x256xf32> {
  %0 = "ttir.all_to_all"(%arg0) <{concat_dim = 1 : si32, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : si32, split_dim = 0 : si32}> : (tensor<32x128xf32>) -> tensor<16x256xf32>
  return %0 : tensor<16x256xf32>
}
