// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=0" %s | FileCheck %s --check-prefix=LEVEL0
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=1" %s | FileCheck %s --check-prefix=ABOVE
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=2" %s | FileCheck %s --check-prefix=ABOVE
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=2 compute-cfg-math-fidelity=hifi4" %s | FileCheck %s --check-prefix=LEVEL0

// The pipeline's math fidelity, left unset, is the optimization level's: hifi4 at level 0; above it none is named,
// so each op runs at TTNN's default for its operands (hifi2 for a bf16 product). An explicit option wins at any level.
// LEVEL0: "ttnn.matmul"{{.*}}compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>
// ABOVE: "ttnn.matmul"{{.*}}compute_config = #ttnn.device_compute_kernel_config<fp32_dest_acc_en = true>
module {
  func.func @forward(%arg0: tensor<64x128xbf16>, %arg1: tensor<128x96xbf16>) -> tensor<64x96xbf16> {
    %0 = "ttir.matmul"(%arg0, %arg1) : (tensor<64x128xbf16>, tensor<128x96xbf16>) -> tensor<64x96xbf16>
    return %0 : tensor<64x96xbf16>
  }
}
