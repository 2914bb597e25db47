// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | ttmlir-translate --ttkernel-to-cpp | FileCheck %s --check-prefix=CPP
// RUN: not ttmlir-opt --split-input-file %S/l1_words_negative.mlir 2>&1 | FileCheck %S/l1_words_negative.mlir
// L1 words through a pointer of 8, 16 or 32 bits (32 is the default and not printed), a word written straight
// into another core's L1, and a local word copied to a NoC address.

// CHECK-LABEL: func.func @words
// CHECK: ttkernel.reinterpret_cast(%{{.*}}) : (i32) -> !ttkernel.l1_addr_ptr{{$}}
// CHECK: ttkernel.reinterpret_cast(%{{.*}}) : (i32) -> !ttkernel.l1_addr_ptr<8>
// CHECK: ttkernel.store_to_l1(%{{.*}}, %{{.*}}, %{{.*}}) : (i8, !ttkernel.l1_addr_ptr<8>, i32) -> ()
// CHECK: ttkernel.load_from_l1(%{{.*}}, %{{.*}}) : (!ttkernel.l1_addr_ptr, i32) -> i32
// CHECK: ttkernel.noc_inline_dw_write(core[%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}}, %{{.*}}, noc %{{.*}}) : (index, index, i32, i32, i8, i8) -> ()
// CHECK: ttkernel.remote_sram_write_u32(%{{.*}}, %{{.*}}) : (!ttkernel.local_semaphore, !ttkernel.noc_addr) -> ()
// CPP: volatile tt_l1_ptr uint32_t* [[P32:v[0-9]+]] = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(
// CPP: volatile tt_l1_ptr uint8_t* [[P8:v[0-9]+]] = reinterpret_cast<volatile tt_l1_ptr uint8_t*>(
// CPP: [[P8]][[[I:v[0-9]+]]] = [[B:v[0-9]+]];
// CPP: volatile tt_l1_ptr uint32_t [[W:v[0-9]+]] = [[P32]][[[I]]];
// CPP: int32_t {{v[0-9]+}} = (int32_t) [[W]];
// CPP: noc0.inline_dw_write<NocOptions::INLINE_L1>(unicast_ep, {{v[0-9]+}}, {.noc_x = {{v[0-9]+}}, .noc_y = {{v[0-9]+}}, .addr = static_cast<uint32_t>({{v[0-9]+}})}, {{v[0-9]+}});
// CPP: uint64_t [[A:noc_addr_0]] = unicast_ep.get_noc_unicast_addr(static_cast<uint32_t>({{v[0-9]+}}), static_cast<uint32_t>({{v[0-9]+}}), static_cast<uint32_t>({{v[0-9]+}}), noc0.get_noc_id());
// CPP: noc_semaphore_set_remote({{v[0-9]+}}, [[A]]);
func.func @words() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %x = arith.constant 1 : index
  %y = arith.constant 2 : index
  %addr = arith.constant 2048 : i32
  %p32 = ttkernel.reinterpret_cast(%addr) : (i32) -> !ttkernel.l1_addr_ptr<32>
  %p8 = ttkernel.reinterpret_cast(%addr) : (i32) -> !ttkernel.l1_addr_ptr<8>
  %i = arith.constant 1 : i32
  %b = arith.constant 9 : i8
  ttkernel.store_to_l1(%b, %p8, %i) : (i8, !ttkernel.l1_addr_ptr<8>, i32) -> ()
  %w = ttkernel.load_from_l1(%p32, %i) : (!ttkernel.l1_addr_ptr, i32) -> i32
  %be = arith.constant 15 : i8
  %noc = arith.constant 0 : i8
  ttkernel.noc_inline_dw_write(core[%x, %y], %addr, %w, %be, noc %noc) : (index, index, i32, i32, i8, i8) -> ()
  %sem_id = arith.constant 0 : i32
  %sem = ttkernel.get_semaphore(%sem_id) : (i32) -> !ttkernel.local_semaphore
  %far = ttkernel.get_noc_addr(%x, %y, %addr, %noc) : (index, index, i32, i8) -> !ttkernel.noc_addr
  ttkernel.remote_sram_write_u32(%sem, %far) : (!ttkernel.local_semaphore, !ttkernel.noc_addr) -> ()
  return
}
