// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | FileCheck %s

// Ops whose kernels compute in another data type than their operands run there and convert back.
// CHECK-LABEL: func.func @tanh_in_bf16
// CHECK: "ttnn.typecast"(%arg0) {{.*}} -> tensor<64x128xbf16
// CHECK: "ttnn.tanh"({{.*}}) : (tensor<64x128xbf16, {{.*}}) -> tensor<64x128xbf16
// CHECK: "ttnn.typecast"({{.*}} -> tensor<64x128xf32
func.func @tanh_in_bf16(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = "ttir.tanh"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// Integer reductions compute in f32 (upstream's workaround): a 32-bit sum adds its words' bytes apart, each byte
// sum exact in f32, and puts the sums together modulo 2^32.
// CHECK-LABEL: func.func @integer_sum_in_f32
// CHECK: %[[BYTE:.*]] = "ttnn.bitwise_and"(%arg0, %{{.*}}) : (tensor<32x64xsi32
// CHECK: %[[F:.*]] = "ttnn.typecast"(%[[BYTE]]) {{.*}} -> tensor<32x64xf32
// CHECK: "ttnn.sum"(%[[F]]) {{.*}} : (tensor<32x64xf32, {{.*}}) -> tensor<32x1xf32
// CHECK-COUNT-3: "ttnn.logical_left_shift"
// CHECK: "ttnn.add"
// CHECK: "ttnn.reshape"({{.*}} -> tensor<32xsi32
func.func @integer_sum_in_f32(%arg0: tensor<32x64xi32>) -> tensor<32xi32> {
  %0 = "ttir.sum"(%arg0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<32x64xi32>) -> tensor<32xi32>
  return %0 : tensor<32xi32>
}

// tt-metal permutes 32-bit integers wrongly: upstream moves them as f32, which rounds past 2^24; here each
// word's 16-bit halves are moved as f32 (exactly) and put back together.
// CHECK-LABEL: func.func @integer_permute_in_f32
// CHECK: %[[HIGH:.*]] = "ttnn.logical_right_shift"(%arg0, %{{.*}}) : (tensor<32x64xsi32
// CHECK: %[[F:.*]] = "ttnn.typecast"(%[[HIGH]]) {{.*}} -> tensor<32x64xf32
// CHECK: "ttnn.permute"(%[[F]])
// CHECK: %[[LOW:.*]] = "ttnn.bitwise_and"(%arg0, %{{.*}}) : (tensor<32x64xsi32
// CHECK: %[[G:.*]] = "ttnn.typecast"(%[[LOW]]) {{.*}} -> tensor<32x64xf32
// CHECK: "ttnn.permute"(%[[G]])
// CHECK: "ttnn.logical_left_shift"
// CHECK: "ttnn.bitwise_or"({{.*}} -> tensor<64x32xsi32
func.func @integer_permute_in_f32(%arg0: tensor<32x64xi32>) -> tensor<64x32xi32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xi32>) -> tensor<64x32xi32>
  return %0 : tensor<64x32xi32>
}

// CHECK-LABEL: func.func @prod_in_bf16
// CHECK: "ttnn.typecast"(%arg0) {{.*}} -> tensor<32x64xbf16
// CHECK: "ttnn.prod"({{.*}}) -> tensor<32xbf16
// CHECK: "ttnn.typecast"({{.*}} -> tensor<32xf32
func.func @prod_in_bf16(%arg0: tensor<32x64xf32>) -> tensor<32xf32> {
  %0 = "ttir.prod"(%arg0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<32x64xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// A u8 reshape runs on si32.
// CHECK-LABEL: func.func @u8_reshape
// CHECK: -> tensor<71x1xsi32
// CHECK: "ttnn.reshape"({{.*}}) <{shape = [71 : i32]}> : (tensor<71x1xsi32, {{.*}}) -> tensor<71xsi32
// CHECK: -> tensor<71xui8
func.func @u8_reshape(%arg0: tensor<71x1xui8>) -> tensor<71xui8> {
  %0 = "ttir.reshape"(%arg0) <{shape = [71 : i32]}> : (tensor<71x1xui8>) -> tensor<71xui8>
  return %0 : tensor<71xui8>
}
