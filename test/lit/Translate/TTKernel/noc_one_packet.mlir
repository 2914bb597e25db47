// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s --check-prefix=IR
// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | ttmlir-translate --ttkernel-to-cpp | FileCheck %s
// The stateful one-packet read (state set once, reads reuse it), the one-packet and loopback multicast writes:
// upstream's syntax round-trips; in C++ they are calls on the Noc object with their NocOptions. The objects a
// kernel uses are declared at its top, the latest first.

// IR: ttkernel.noc_async_read_one_packet_set_state(core[%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}}, noc %{{.*}}) : (index, index, i32, i32, i8) -> ()
// IR: ttkernel.noc_async_read_one_packet_with_state(bank[%{{.*}}], %{{.*}}, %{{.*}}, %{{.*}}, noc %{{.*}}) : (i32, i32, i32, i32, i8) -> ()
// IR: ttkernel.noc_async_write_multicast_one_packet(%{{.*}}, start_xy[%{{.*}}, %{{.*}}], end_xy[%{{.*}}, %{{.*}}], %{{.*}}, noc %{{.*}}) :
// IR: ttkernel.noc_async_write_multicast_loopback_src({{.*}}, linked true) :

// CHECK: void kernel_main() {
// CHECK-NEXT: MulticastEndpoint mcast_ep;
// CHECK-NEXT: AllocatorBank<AllocatorBankType::DRAM> dram_ep;
// CHECK-NEXT: UnicastEndpoint unicast_ep;
// CHECK-NEXT: Noc noc1(1);
// CHECK: noc1.set_async_read_state<NocOptions::DEFAULT, NOC_MAX_BURST_SIZE>(unicast_ep, [[SIZE:v[0-9]+]], {.noc_x = [[X:v[0-9]+]], .noc_y = [[Y:v[0-9]+]], .addr = static_cast<uint32_t>([[ADDR:v[0-9]+]])});
// CHECK: noc1.async_read_with_state<NocOptions::DEFAULT, NOC_MAX_BURST_SIZE>(dram_ep, CoreLocalMem<uint32_t>([[L1:v[0-9]+]]), [[SIZE]], {.bank_id = static_cast<uint32_t>([[BANK:v[0-9]+]]), .addr = static_cast<uint32_t>([[ADDR]])}, {});
// CHECK: noc1.async_write_multicast<NocOptions::DEFAULT, NOC_MAX_BURST_SIZE>(CoreLocalMem<uint32_t>([[L1]]), mcast_ep, [[SIZE]], [[N:v[0-9]+]], {} , noc_traits_t<MulticastEndpoint>::dst_args_mcast_type{.noc_x_start = [[X]], .noc_y_start = [[Y]], .noc_x_end = [[X]], .noc_y_end = [[Y]], .addr = static_cast<uint32_t>([[ADDR]])}, false);
// CHECK: noc1.async_write_multicast<NocOptions::MCAST_INCL_SRC>(CoreLocalMem<uint32_t>([[L1]]), mcast_ep, [[SIZE]], [[N]], {} , {{.*}}, true);
func.func @reader() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %x = arith.constant 1 : index
  %y = arith.constant 2 : index
  %bank = arith.constant 3 : i32
  %addr = arith.constant 8192 : i32
  %l1 = arith.constant 4096 : i32
  %size = arith.constant 64 : i32
  %n = arith.constant 1 : i32
  %noc = arith.constant 1 : i8
  ttkernel.noc_async_read_one_packet_set_state(core[%x, %y], %addr, %size, noc %noc) : (index, index, i32, i32, i8) -> ()
  ttkernel.noc_async_read_one_packet_with_state(bank[%bank], %addr, %l1, %size, noc %noc) : (i32, i32, i32, i32, i8) -> ()
  ttkernel.noc_async_write_multicast_one_packet(%l1, %size, %n, start_xy[%x, %y], end_xy[%x, %y], %addr, noc %noc) : (i32, i32, i32, index, index, index, index, i32, i8) -> ()
  ttkernel.noc_async_write_multicast_loopback_src(%l1, %size, %n, start_xy[%x, %y], end_xy[%x, %y], %addr, noc %noc, linked true) : (i32, i32, i32, index, index, index, index, i32, i8) -> ()
  return
}
