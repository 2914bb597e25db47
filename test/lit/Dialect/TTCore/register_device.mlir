// RUN: ttmlir-opt --ttcore-register-device %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device="mock-system-desc-arch=blackhole" %s | FileCheck %s --check-prefix=BH

// CHECK: #system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 8x8, coord_translation_offsets = 18x18, l1_size = 1499136, num_dram_channels = 12, dram_channel_size = 1073741824
// CHECK-SAME: supported_tile_sizes = [ 4x16,  16x16,  32x16,  4x32,  16x32,  32x32]
// CHECK-SAME: [0], [3 : i32], [ 0x0x0x0]>
// CHECK: module attributes {ttcore.system_desc = #system_desc} {
// CHECK: ttcore.device @default_device = <workerGrid = #ttcore.grid<8x8, (d0, d1) -> (0, d0, d1)>, l1Map = (d0, d1, d2)[s0] -> (0, d0, d1, d2 + s0), dramMap = (d0, d1, d2)[s0, s1, s2, s3, s4, s5, s6] -> {{.*}} mod 12{{.*}}, meshShape = 1x1, chipIds = [0]>
// BH: arch = <blackhole>, grid = 10x13
// BH-SAME: l1_size = 1572864, num_dram_channels = 8, dram_channel_size = 4278190080
// BH: workerGrid = #ttcore.grid<10x13
module {
  func.func @f(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
    return %arg0 : tensor<32x32xf32>
  }
}
