// RUN: ttmlir-opt --ttcore-register-device %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device="mesh-shape=2,4" %s | FileCheck %s
// RUN: not ttmlir-opt --ttcore-register-device="mesh-shape=1,2" %s 2>&1 | FileCheck %s --check-prefix=DISAGREE
// A module that declares its mesh in ttcore.meshes gets a device of that mesh; an option naming another fails.

// CHECK: ttcore.device @default_device
// CHECK-SAME: meshShape = 2x4
// DISAGREE: error: Error determining mesh shape: Option.meshShape and mesh info from graph should be identical.
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x4>]>} {
  func.func @f(%arg0: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
    return %arg0 : tensor<32x32xbf16>
  }
}
