// RUN: ttmlir-opt --ttir-to-ttnn-common-pipeline="system-desc-path=%system_desc_path%" -o %t.mlir %s
// RUN: ttmlir-opt --ttnn-common-to-runtime-pipeline -o %t_rt.mlir %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn %t_rt.mlir
// RUN: ttmlir-opt --ttnn-common-to-emitc-pipeline -o %t2.mlir %t.mlir
// RUN: FileCheck %s --check-prefix=EMITC --input-file=%t2.mlir
// RUN: ttmlir-translate --mlir-to-cpp %t2.mlir | FileCheck %s

// Two ops of a layer, with the results of topk (two tensors) taken apart from one std::tuple.

func.func @forward(%x: tensor<32x64xbf16>, %w: tensor<64x32xbf16>) -> (tensor<32x32xbf16>, tensor<32x4xbf16>, tensor<32x4xui32>) {
  %0 = "ttir.matmul"(%x, %w) : (tensor<32x64xbf16>, tensor<64x32xbf16>) -> tensor<32x32xbf16>
  %1 = "ttir.relu"(%0) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
  %2, %3 = "ttir.topk"(%1) <{k = 4 : i32}> : (tensor<32x32xbf16>) -> (tensor<32x4xbf16>, tensor<32x4xui32>)
  return %1, %2, %3 : tensor<32x32xbf16>, tensor<32x4xbf16>, tensor<32x4xui32>
}

// EMITC: emitc.include "ttnn-precompiled.hpp"
// EMITC-LABEL: func.func @forward(%arg0: !emitc.opaque<"::std::vector<::ttnn::Tensor>">) -> !emitc.opaque<"::std::vector<::ttnn::Tensor>">
// EMITC: emitc.subscript %arg0[
// EMITC: emitc.call_opaque "ttnn::matmul"
// EMITC-LABEL: func.func @create_inputs_for_forward()
// EMITC-LABEL: func.func @main() -> i32
// EMITC: emitc.call_opaque "::create_inputs_for_forward"()
// EMITC: emitc.call_opaque "::forward"

// CHECK: #include "ttnn-precompiled.hpp"
// CHECK: ::std::vector<::ttnn::Tensor> forward(::std::vector<::ttnn::Tensor> [[ARGS:v[0-9]+]]) {
// CHECK: ::ttnn::Tensor [[X:v[0-9]+]] = [[ARGS]][0];
// CHECK: ::ttnn::Tensor [[MM:v[0-9]+]] = ttnn::matmul([[X]], {{v[0-9]+}}, false, false, ::ttnn::MemoryConfig{::ttnn::TensorMemoryLayout::INTERLEAVED, ::ttnn::BufferType::DRAM, ::std::nullopt}, ::std::nullopt, {{.*}});
// CHECK: ::ttnn::Tensor [[RELU:v[0-9]+]] = ttnn::relu([[MM]], ::ttnn::DataType::BFLOAT16,
// CHECK: ttnn::deallocate([[MM]], false);
// CHECK: ::std::tuple<::ttnn::Tensor, ::ttnn::Tensor> [[TOPK:v[0-9]+]] = ttnn::topk([[RELU]], 4,
// CHECK: ::ttnn::Tensor {{v[0-9]+}} = ::std::get<0>([[TOPK]]);
// CHECK: ::ttnn::Tensor {{v[0-9]+}} = ::std::get<1>([[TOPK]]);
// CHECK: util_create_vec(
// CHECK-LABEL: ::std::vector<::ttnn::Tensor> create_inputs_for_forward() {
// CHECK: ttnn::ones(::ttnn::Shape{::std::vector<int64_t>{32, 64}}, ::ttnn::DataType::BFLOAT16, ::ttnn::Layout::TILE, {{v[0-9]+}},
// CHECK: int32_t main() {
// CHECK: ::std::vector<::ttnn::Tensor> [[INS:v[0-9]+]] = ::create_inputs_for_forward();
// CHECK: ::forward([[INS]]);
