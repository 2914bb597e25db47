// Reads tiles [start, start + count) of two DRAM-interleaved tensors into CBs 0 and 1.
#include "dataflow_api.h"

void kernel_main() {
  uint32_t a_addr = get_arg_val<uint32_t>(0);
  uint32_t b_addr = get_arg_val<uint32_t>(1);
  uint32_t start = get_arg_val<uint32_t>(2);
  uint32_t count = get_arg_val<uint32_t>(3);
  uint32_t banks = get_compile_time_arg_val(0);
  uint32_t page = get_tile_size(0);
  for (uint32_t i = start; i < start + count; i += 1) {
    cb_reserve_back(0, 1);
    cb_reserve_back(1, 1);
    uint32_t bank = i % banks;
    uint32_t row = i / banks;
    noc_async_read(get_noc_addr_from_bank_id<true>(bank, a_addr + row * page), get_write_ptr(0), page);
    noc_async_read(get_noc_addr_from_bank_id<true>(bank, b_addr + row * page), get_write_ptr(1), page);
    noc_async_read_barrier();
    cb_push_back(0, 1);
    cb_push_back(1, 1);
  }
}
