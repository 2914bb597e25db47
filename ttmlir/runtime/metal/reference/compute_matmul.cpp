// One output tile per Kt pairs of input tiles, accumulated in dst 0.
#include "compute_kernel_api/matmul.h"

namespace NAMESPACE {
void MAIN {
  uint32_t count = get_arg_val<uint32_t>(0);
  uint32_t kt = get_arg_val<uint32_t>(1);
  mm_init(0, 1, 16);
  for (uint32_t t = 0; t < count; t += 1) {
    tile_regs_acquire();
    for (uint32_t k = 0; k < kt; k += 1) {
      cb_wait_front(0, 1);
      cb_wait_front(1, 1);
      matmul_tiles(0, 1, 0, 0, 0, false);
      cb_pop_front(0, 1);
      cb_pop_front(1, 1);
    }
    tile_regs_commit();
    cb_reserve_back(16, 1);
    tile_regs_wait();
    pack_tile(0, 16);
    tile_regs_release();
    cb_push_back(16, 1);
  }
}
}
