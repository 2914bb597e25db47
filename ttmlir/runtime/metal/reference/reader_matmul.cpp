// For output tiles [start, start + count) of C = A @ B (A: Mt x Kt tiles, B: Kt x Nt tiles, both
// DRAM-interleaved), streams A[m][k] into CB 0 and B[k][n] into CB 1 for k = 0..Kt-1.
#include "dataflow_api.h"

void kernel_main() {
  uint32_t a_addr = get_arg_val<uint32_t>(0);
  uint32_t b_addr = get_arg_val<uint32_t>(1);
  uint32_t start = get_arg_val<uint32_t>(2);
  uint32_t count = get_arg_val<uint32_t>(3);
  uint32_t kt = get_arg_val<uint32_t>(4);
  uint32_t nt = get_arg_val<uint32_t>(5);
  uint32_t banks = get_compile_time_arg_val(0);
  uint32_t page = get_tile_size(0);
  for (uint32_t t = start; t < start + count; t += 1) {
    uint32_t m = t / nt;
    uint32_t n = t % nt;
    for (uint32_t k = 0; k < kt; k += 1) {
      uint32_t a_tile = m * kt + k;
      uint32_t b_tile = k * nt + n;
      cb_reserve_back(0, 1);
      cb_reserve_back(1, 1);
      noc_async_read(get_noc_addr_from_bank_id<true>(a_tile % banks, a_addr + (a_tile / banks) * page), get_write_ptr(0), page);
      noc_async_read(get_noc_addr_from_bank_id<true>(b_tile % banks, b_addr + (b_tile / banks) * page), get_write_ptr(1), page);
      noc_async_read_barrier();
      cb_push_back(0, 1);
      cb_push_back(1, 1);
    }
  }
}
