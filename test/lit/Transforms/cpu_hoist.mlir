// RUN: ttmlir-opt --ttcore-wrap-device-module --cpu-hoist-manually-tagged %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-wrap-device-module --cpu-hoist-manually-tagged %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=TTNN --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section op_stats %t.ttnn | FileCheck %s --check-prefix=READ
// RUN: ttrt run --check-memory-leak %t.ttnn | FileCheck %s --check-prefix=EXEC

// Ops marked ttir.should_hoist run on the host CPU: each becomes a ttcore.cpu_module function (in f32),
// declared in the device module and called from where the op was. Identical ops share one function.

// CHECK: ttcore.device_module {
// CHECK-LABEL: func.func @bf16_add
// CHECK: %[[A:.*]] = ttir.to_layout %arg0, %{{.*}} : tensor<32x32xbf16> into tensor<32x32xf32> -> tensor<32x32xf32>
// CHECK: %[[B:.*]] = ttir.to_layout %arg1, %{{.*}} : tensor<32x32xbf16> into tensor<32x32xf32> -> tensor<32x32xf32>
// CHECK: %[[C:.*]] = call @[[FN:cpu_hoisted_ttir_add_[0-9a-f]+]](%[[A]], %[[B]]) {ttir.cpu_hoist_call} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK: ttir.to_layout %[[C]], %{{.*}} : tensor<32x32xf32> into tensor<32x32xbf16> -> tensor<32x32xbf16>
// CHECK-LABEL: func.func @f32_add
// CHECK: call @[[FN]](%arg0, %arg1) {ttir.cpu_hoist_call}
// CHECK: func.func private @[[FN]](tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32> attributes {tt.function_type = "forward_cpu_declaration"}
// CHECK-NOT: func.func private
// CHECK: ttcore.cpu_module {
// CHECK: func.func @[[FN]](%arg0: tensor<32x32xf32>, %arg1: tensor<32x32xf32>) -> tensor<32x32xf32> attributes {tt.function_type = "forward_cpu"}
// CHECK-NEXT: "ttir.add"(%arg0, %arg1)

// The hoisted call reads and writes host tensors: a device value moves to the host (bf16_add casts it there
// to f32), a host argument goes in as it is; results move back to the device. The CPU function's
// ops work in system memory.
// TTNN: #[[HOST:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xf32, #system_memory>>
// TTNN-LABEL: func.func @bf16_add
// TTNN: "ttnn.from_device"
// TTNN: "ttnn.typecast"
// TTNN: %[[IN:.*]] = "ttnn.to_layout"({{.*}}) {{.*}} -> tensor<32x32xf32, #[[HOST]]>
// TTNN: call @cpu_hoisted_ttir_add_{{.*}}(%[[IN]], %{{.*}}) {ttir.cpu_hoist_call}
// TTNN-LABEL: func.func @f32_add
// TTNN: %[[OUT:.*]] = call @cpu_hoisted_ttir_add_{{.*}}(%arg0, %arg1) {ttir.cpu_hoist_call}
// TTNN-NEXT: %[[TILED:.*]] = "ttnn.to_layout"(%[[OUT]]) {{.*}} -> tensor<32x32xf32, #[[HOSTTILE:ttnn_layout[0-9]*]]>
// TTNN-NEXT: "ttnn.to_device"(%[[TILED]]
// The runtime pipeline lowers the CPU module to LLVM: the function with memref-descriptor arguments (pointer,
// aligned pointer, offset, sizes, strides per tensor) and its helper, which the runtime calls through a CpuOp.
// TTNN: ttcore.cpu_module {
// TTNN: llvm.func @[[CPU:cpu_hoisted_ttir_add_[0-9a-f]+]](%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: !llvm.ptr, {{.*}}) -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> attributes {arg_ranks = [2, 2], result_ranks = [2]
// TTNN: llvm.fadd
// TTNN: llvm.func @[[CPU]]_helper(%arg0: !llvm.ptr) -> !llvm.ptr
// TTNN-NOT: "ttnn.add"

// READ: "program": "bf16_add"
// READ: "ttnn.cpu": 1
// READ: "program": "f32_add"
// READ: "ttnn.cpu": 1
// EXEC: PASS
module {
  func.func @bf16_add(%arg0: tensor<32x32xbf16>, %arg1: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
    %0 = "ttir.add"(%arg0, %arg1) {ttir.should_hoist} : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %0 : tensor<32x32xbf16>
  }
  func.func @f32_add(%arg0: tensor<32x32xf32>, %arg1: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %0 = "ttir.add"(%arg0, %arg1) {ttir.should_hoist} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
}
