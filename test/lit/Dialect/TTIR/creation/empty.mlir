// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @empty
// Both spellings parse; it prints in upstream's custom format.
// CHECK: %{{[0-9]+}} = ttir.empty() : tensor<32x64xf32>
// CHECK: %{{[0-9]+}} = ttir.empty() : tensor<2x3xsi32>
// TTNN: %[[DEV:[0-9]+]] = "ttnn.get_device"
// TTNN: "ttnn.empty"(%[[DEV]])
// TTNN-SAME: shape = #ttnn.shape<32x64>
module {
  func.func @empty() -> tensor<32x64xf32> {
    %0 = "ttir.empty"() : () -> tensor<32x64xf32>
    %1 = ttir.empty() : tensor<2x3xsi32>
    return %0 : tensor<32x64xf32>
  }
}
