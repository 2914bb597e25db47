// RUN: ttmlir-opt --ttnn-set-compute-kernel-config %s | FileCheck %s --check-prefix=DEFAULT
// RUN: ttmlir-opt --ttnn-set-compute-kernel-config="math-fidelity=lofi math-approx-mode=true fp32-dest-acc-en=false" %s | FileCheck %s --check-prefix=SET
// RUN: ttmlir-opt --ttnn-set-compute-kernel-config="math-fidelity=undefined fp32-dest-acc-en=unset" %s | FileCheck %s --check-prefix=UNSET
// RUN: not ttmlir-opt --ttnn-set-compute-kernel-config="fp32-dest-acc-en=maybe" %s 2>&1 | FileCheck %s --check-prefix=BAD

// The pass fills the fields an op's compute_config leaves unset; fields the op sets stay.
module {
  // DEFAULT-LABEL: func.func @fill
  // SET-LABEL: func.func @fill
  // UNSET-LABEL: func.func @fill
  func.func @fill(%a: tensor<64x128xbf16>, %b: tensor<128x96xbf16>) -> tensor<64x96xbf16> {
    // DEFAULT: "ttnn.matmul"
    // DEFAULT-SAME: compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>
    // SET: "ttnn.matmul"
    // SET-SAME: compute_config = #ttnn.device_compute_kernel_config<math_fidelity = lofi, math_approx_mode = true, fp32_dest_acc_en = false>
    // UNSET: "ttnn.matmul"(%arg0, %arg1) <{transpose_a = false, transpose_b = false}> : (
    %0 = "ttnn.matmul"(%a, %b) : (tensor<64x128xbf16>, tensor<128x96xbf16>) -> tensor<64x96xbf16>
    // DEFAULT: "ttnn.softmax"
    // DEFAULT-SAME: compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi2, fp32_dest_acc_en = true>
    // SET: "ttnn.softmax"
    // SET-SAME: compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi2, math_approx_mode = true, fp32_dest_acc_en = false>
    %1 = "ttnn.softmax"(%0) <{dimension = 1 : si32, compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi2>}> : (tensor<64x96xbf16>) -> tensor<64x96xbf16>
    // DEFAULT: "ttnn.relu"(%{{[0-9]+}}) : (
    %2 = "ttnn.relu"(%1) : (tensor<64x96xbf16>) -> tensor<64x96xbf16>
    return %2 : tensor<64x96xbf16>
  }

  // A bf16 matmul with an inner dimension over 50000 accumulates in f32 with packer L1 accumulation, whatever
  // its config said.
  // SET-LABEL: func.func @large_inner
  func.func @large_inner(%a: tensor<32x51200xbf16>, %b: tensor<51200x32xbf16>) -> tensor<32x32xbf16> {
    // SET: "ttnn.matmul"
    // SET-SAME: compute_config = #ttnn.device_compute_kernel_config<math_fidelity = lofi, math_approx_mode = true, fp32_dest_acc_en = true, packer_l1_acc = true>
    %0 = "ttnn.matmul"(%a, %b) <{compute_config = #ttnn.device_compute_kernel_config<fp32_dest_acc_en = false>}> : (tensor<32x51200xbf16>, tensor<51200x32xbf16>) -> tensor<32x32xbf16>
    return %0 : tensor<32x32xbf16>
  }
}

// BAD: error: option 'fp32-dest-acc-en' takes true, false or unset, not 'maybe'
