// out = OP(a, b) on the SFPU: both tiles copied into dst, the result in dst 0.
#include "compute_kernel_api/eltwise_binary_sfpu.h"

namespace NAMESPACE {
void MAIN {
  uint32_t count = get_arg_val<uint32_t>(0);
  init_sfpu(0, 16);
  for (uint32_t i = 0; i < count; ++i) {
    cb_wait_front(0, 1);
    cb_wait_front(1, 1);
    cb_reserve_back(16, 1);
    tile_regs_acquire();
    copy_tile_init(0);
    copy_tile(0, 0, 0);
    copy_tile_init(1);
    copy_tile(1, 0, 1);
    OP_init();
    OP(0, 1, 0);
    exp_tile_init();
    exp_tile(0);
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
