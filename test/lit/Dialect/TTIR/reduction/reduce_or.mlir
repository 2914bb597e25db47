// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @reduce_or
// CHECK: %{{[0-9]+}} = "ttir.reduce_or"(%arg0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<4x32x64xf32>) -> tensor<4x1x64xf32>
// TTNN: "ttnn.ne"(%arg0,
// TTNN: "ttnn.sum"(%{{.*}}) <{compute_config = #ttnn.device_compute_kernel_config<{{.*}}>, dim_arg = [1 : i32], keep_dim = true}>
// TTNN: "ttnn.ne"

module {
  func.func @reduce_or(%arg0: tensor<4x32x64xf32>) -> tensor<4x1x64xf32> {
    %0 = "ttir.reduce_or"(%arg0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<4x32x64xf32>) -> tensor<4x1x64xf32>
    return %0 : tensor<4x1x64xf32>
  }
}
