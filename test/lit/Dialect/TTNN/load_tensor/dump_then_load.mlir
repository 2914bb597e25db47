// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: ttmlir-opt --ttcore-register-device --ttcore-mark-functions-as-forward --ttcore-wrap-device-module --ttnn-common-to-runtime-pipeline %s -o %t/prog.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t/prog.mlir -o %t/prog.ttnn
// RUN: ttrt run %t/prog.ttnn | FileCheck %s
// RUN: ls %t | FileCheck %s --check-prefix=FILES

// A tensor ttnn.dump_tensor saved, ttnn.load_tensor reads back: onto the device (which it then takes) or the host.
// CHECK: PASS
// FILES: kept.tensorbin

#dram = #ttnn.buffer_type<dram>
#on_device = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
func.func @round_trip(%arg0: tensor<64x32xbf16, #on_device>) -> tensor<64x32xbf16, #on_device> {
  %device = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
  "ttnn.dump_tensor"(%arg0) <{file_path = "kept.tensorbin"}> : (tensor<64x32xbf16, #on_device>) -> ()
  %0 = "ttnn.load_tensor"(%device) <{file_path = "kept.tensorbin"}> : (!ttnn.device) -> tensor<64x32xbf16, #on_device>
  return %0 : tensor<64x32xbf16, #on_device>
}
