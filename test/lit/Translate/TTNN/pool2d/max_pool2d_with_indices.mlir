// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=IR
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s
// Destination operands are dropped; the pool reads row-major bf16 and writes its indices as row-major u16.

// IR: "ttnn.max_pool2d_with_indices"({{.*}}) <{batch_size = 2 : si32, ceil_mode = true
// IR-SAME: input_height = 15 : si32, input_width = 15 : si32
// IR-SAME: -> (tensor<1x1x128x32xbf16, {{.*}}>, tensor<1x1x128x32xui16, {{.*}}>)
// IR: "ttnn.typecast"{{.*}}ui16{{.*}} -> tensor<1x1x128x32xsi32

// CHECK-LABEL: "outputs": [
// CHECK: "shape": [2, 8, 8, 32]
// CHECK: "data_type": "f32"
// CHECK: "shape": [2, 8, 8, 32]
// CHECK: "data_type": "si32"
// CHECK-LABEL: "op_stats": [
// CHECK: "ttnn.max_pool2d_with_indices": 1
module {
  func.func @pool(%arg0: tensor<2x15x15x32xf32>) -> (tensor<2x8x8x32xf32>, tensor<2x8x8x32xsi32>) {
    %0 = ttir.empty() : tensor<2x8x8x32xf32>
    %1 = ttir.empty() : tensor<2x8x8x32xsi32>
    %2, %3 = "ttir.max_pool2d_with_indices"(%arg0, %0, %1) <{ceil_mode = true, dilation = 1 : i32, kernel = 2 : i32, padding = 0 : i32, stride = 2 : i32}> : (tensor<2x15x15x32xf32>, tensor<2x8x8x32xf32>, tensor<2x8x8x32xsi32>) -> (tensor<2x8x8x32xf32>, tensor<2x8x8x32xsi32>)
    return %2, %3 : tensor<2x8x8x32xf32>, tensor<2x8x8x32xsi32>
  }
}
