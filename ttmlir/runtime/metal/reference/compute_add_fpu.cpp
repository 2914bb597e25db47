// out = a + b on the FPU, one tile at a time.
#include "compute_kernel_api/eltwise_binary.h"

namespace NAMESPACE {
void MAIN {
  uint32_t count = get_arg_val<uint32_t>(0);
  binary_op_init_common(0, 1, 16);
  add_tiles_init(0, 1);
  for (uint32_t i = 0; i < count; ++i) {
    cb_wait_front(0, 1);
    cb_wait_front(1, 1);
    cb_reserve_back(16, 1);
    tile_regs_acquire();
    add_tiles(0, 1, 0, 0, 0);
    tile_regs_commit();
    tile_regs_wait();
    pack_tile(0, 16);
    tile_regs_release();
    cb_push_back(16, 1);
    cb_pop_front(0, 1);
    cb_pop_front(1, 1);
  }
}
}
