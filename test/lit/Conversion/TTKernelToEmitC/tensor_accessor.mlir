// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | FileCheck %s
// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | ttmlir-translate --ttkernel-to-cpp | FileCheck %s --check-prefix=CPP
// A DRAM buffer's pages read by id through a TensorAccessor, in the Noc object API.

// CHECK-LABEL: func.func @reader
// CHECK: emitc.verbatim "Noc noc0(0);"
// CHECK: emitc.verbatim "constexpr auto tensor_accessor_args_0 = TensorAccessorArgs<0, 0>();"
// CHECK: emitc.call_opaque "TensorAccessor"(%{{.*}}, %{{.*}}, %{{.*}}) : (!emitc.opaque<"auto">, i32, i32) -> !emitc.opaque<"TensorAccessor">
// CHECK: emitc.verbatim "const uint32_t page_id_0 = static_cast<uint32_t>({});" args
// CHECK: .page_id = page_id_0
// CHECK-NOT: ttkernel.
// CPP: constexpr auto tensor_accessor_args_0 = TensorAccessorArgs<0, 0>();
// CPP: TensorAccessor v{{[0-9]+}} = TensorAccessor(tensor_accessor_args_0, v{{[0-9]+}}, v{{[0-9]+}});
// CPP: noc0.async_read(v{{[0-9]+}}, CoreLocalMem<uint32_t>(v{{[0-9]+}}), v{{[0-9]+}}.get_aligned_page_size(), {.page_id = page_id_0}, {});
func.func @reader() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %noc = arith.constant 0 : i8
  %c0 = arith.constant 0 : i32
  %page = arith.constant 2048 : i32
  %base = arith.constant 65536 : i32
  %dst = arith.constant 4096 : i32
  %args = ttkernel.TensorAccessorArgs(%c0, %c0)
  %pages = ttkernel.TensorAccessor(%args, %base, %page) : (!ttkernel.TensorAccessorArgs, i32, i32) -> !ttkernel.TensorAccessor
  ttkernel.noc_async_read_tile(%c0, %pages, %dst, %noc) : (i32, !ttkernel.TensorAccessor, i32, i8) -> ()
  ttkernel.noc_async_read_barrier(%noc) : (i8) -> ()
  return
}
