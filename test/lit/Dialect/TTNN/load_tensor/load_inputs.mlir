// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline --ttcore-unwrap-device-module --ttnn-tuplify-tensors --ttnn-load-input-tensors="tensor-load-directory=data tensor-load-file-prefix=in" %s | FileCheck %s

// Each forward function with inputs gets a loader reading them in order (the device made once, first); `main`
// calls the function on what it loads. A function without inputs gets none.
// CHECK-LABEL: func.func @load_inputs_for_scale()
// CHECK-NEXT: %[[DEV:.*]] = "ttnn.get_device"
// CHECK-NEXT: "ttnn.load_tensor"(%[[DEV]]) <{file_path = "data/in0.tensorbin"}> : (!ttnn.device) -> tensor<32x64xf32
// CHECK-NEXT: "ttnn.load_tensor"(%[[DEV]]) <{file_path = "data/in1.tensorbin"}> : (!ttnn.device) -> tensor<32x64xf32
// CHECK-NOT: load_inputs_for_fixed
// CHECK-LABEL: func.func @main() -> i32
// CHECK: %[[IN:.*]] = call @load_inputs_for_scale()
// CHECK: call @scale(%[[IN]])
func.func @scale(%arg0: tensor<32x64xf32>, %arg1: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %0 = "ttir.multiply"(%arg0, %arg1) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
}

func.func @fixed() -> tensor<32x32xf32> {
  %0 = "ttir.constant"() <{value = dense<2.0> : tensor<32x32xf32>}> : () -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}
