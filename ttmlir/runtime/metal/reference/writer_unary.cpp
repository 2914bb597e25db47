// Writes tiles [start, start + count) from CB 16 to a DRAM-interleaved tensor.
#include "dataflow_api.h"

void kernel_main() {
  uint32_t out_addr = get_arg_val<uint32_t>(0);
  uint32_t start = get_arg_val<uint32_t>(1);
  uint32_t count = get_arg_val<uint32_t>(2);
  uint32_t banks = get_compile_time_arg_val(0);
  uint32_t page = get_tile_size(16);
  for (uint32_t i = start; i < start + count; i += 1) {
    cb_wait_front(16, 1);
    noc_async_write(get_read_ptr(16), get_noc_addr_from_bank_id<true>(i % banks, out_addr + (i / banks) * page), page);
    noc_async_write_barrier();
    cb_pop_front(16, 1);
  }
}
