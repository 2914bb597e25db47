// RUN: ttmlir-opt --ttcore-register-device="mesh-shape=1,2" --ttcore-wrap-device-module --cpu-hoist-const-eval --canonicalize %s | FileCheck %s
// A collective stays on the device and splits the host work around it: one CPU function before it, one after.
// A stretch with an op the CPU module cannot lower through Linalg (rms_norm) stays on the device, alone.
// The constant the function returns is made first, ahead of the calls.

// CHECK-LABEL: func.func private @around_gather
// CHECK: "ttir.full"
// CHECK: call @cpu_hoisted_const_eval_[[BEFORE:[0-9a-f]+]]
// CHECK: "ttir.all_gather"
// CHECK-NOT: "ttir.multiply"
// CHECK: call @cpu_hoisted_const_eval_[[AFTER:[0-9a-f]+]]
// CHECK: return
func.func private @around_gather(%arg0: tensor<32x32xbf16>, %arg1: tensor<32x32xbf16>) -> (tensor<32x64xbf16>, tensor<32x32xbf16>) attributes {tt.function_type = "const_eval"} {
  %0 = "ttir.add"(%arg0, %arg1) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  %1 = "ttir.all_gather"(%0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xbf16>) -> tensor<32x64xbf16>
  %2 = "ttir.multiply"(%1, %1) : (tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
  %3 = "ttir.full"() <{shape = array<i32: 32, 32>, fill_value = 2.0 : f32}> : () -> tensor<32x32xbf16>
  return %2, %3 : tensor<32x64xbf16>, tensor<32x32xbf16>
}

// CHECK-LABEL: func.func private @unlowerable_after_gather
// CHECK: call @cpu_hoisted_const_eval_
// CHECK: "ttir.all_gather"
// CHECK-NEXT: "ttir.rms_norm"
// CHECK-NOT: call
// CHECK: return
func.func private @unlowerable_after_gather(%arg0: tensor<32x32xf32>, %arg1: tensor<64xf32>) -> tensor<32x64xf32> attributes {tt.function_type = "const_eval"} {
  %0 = "ttir.exp"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %1 = "ttir.all_gather"(%0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x64xf32>
  %2 = "ttir.rms_norm"(%1, %arg1) <{normalized_shape = array<i64: 64>, epsilon = 1.000000e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<32x64xf32>, tensor<64xf32>) -> tensor<32x64xf32>
  return %2 : tensor<32x64xf32>
}

// CHECK: ttcore.cpu_module
// CHECK-DAG: func.func @cpu_hoisted_const_eval_[[BEFORE]]({{.*}}) -> tensor<32x32xf32>
// CHECK-DAG: func.func @cpu_hoisted_const_eval_[[AFTER]]({{.*}}) -> tensor<32x64xf32>
