// RUN: ttmlir-opt --ttcore-wrap-device-module %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-wrap-device-module --ttcore-unwrap-device-module %s | FileCheck %s --check-prefix=UNWRAP
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | FileCheck %s --check-prefix=PIPELINE

// CHECK: module {
// CHECK-NEXT: ttcore.device_module {
// CHECK-NEXT: builtin.module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x1>]>} {
// CHECK-NEXT: func.func @relu

// UNWRAP: module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x1>]>} {
// UNWRAP-NEXT: func.func @relu
// UNWRAP-NOT: ttcore.device_module

// The backend pipeline wraps first, so the device and descriptor land on the inner module.
// PIPELINE: ttcore.device_module {
// PIPELINE-NEXT: builtin.module attributes {ttcore.meshes = {{.*}}, ttcore.system_desc = #system_desc} {
// PIPELINE-NEXT: ttcore.device @default_device
// PIPELINE: "ttnn.relu"
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x1>]>} {
  func.func @relu(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %0 = "ttir.relu"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
}
