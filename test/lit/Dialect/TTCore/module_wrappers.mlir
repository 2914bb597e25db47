// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK: #system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 8x8
// CHECK-SAME: dram_grid = 1x12, dram_bank_to_logical_worker_noc0 = [(7, 3), (0, 0)], dram_bank_to_logical_worker_noc1 = [(7, 3), (0, 0)]}], [0], [1 : i32], [ 0x0x0x0]>
// CHECK: module {
// CHECK-NEXT: ttcore.device_module {
// CHECK-NEXT: builtin.module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>, ttcore.system_desc = #system_desc} {
// CHECK: ttcore.device @default_device = <workerGrid = #ttcore.grid<8x8, virt_to_physical_map = (d0, d1) -> (0, d0, d1), physical_to_virt_map = (d0, d1, d2) -> (d1, d2)>, dramGrid = #ttcore.grid<1x12>, l1Map = (d0, d1, d2)[s0] -> (0, d0, d1, d2 + s0), dramMap = (d0, d1, d2)[s0] -> (0, 0, d0 floordiv s0), meshShape = 1x2, chipIds = [0, 1]>
// CHECK: ttcore.load_cached(@forward_const_eval_0, [%arg0]) : (tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK: ttcore.cpu_module {
#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 8x8, coord_translation_offsets = 18x18, l1_size = 1499136, num_dram_channels = 12, dram_channel_size = 1073741824, noc_l1_address_align_bytes = 16, pcie_address_align_bytes = 32, noc_dram_address_align_bytes = 32, l1_unreserved_base = 1024, erisc_l1_unreserved_base = 1024, dram_unreserved_base = 1024, dram_unreserved_end = 1073741824, supported_data_types = [<f32>, <bf16>], supported_tile_sizes = [ 32x32], dst_physical_size_tiles = 16, num_cbs = 32, num_compute_threads = 1, num_datamovement_threads = 2, dram_grid = 1x12, dram_bank_to_logical_worker_noc0 = [(7, 3), (0, 0)], dram_bank_to_logical_worker_noc1 = [(7, 3), (0, 0)]}], [0], [1 : i32], [ 0x0x0x0]>
module {
  ttcore.device_module {
    builtin.module attributes {ttcore.system_desc = #system_desc, ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
      ttcore.device @default_device = <workerGrid = #ttcore.grid<8x8, virt_to_physical_map = (d0, d1) -> (0, d0, d1), physical_to_virt_map = (d0, d1, d2) -> (d1, d2)>, dramGrid = #ttcore.grid<1x12>, l1Map = (d0, d1, d2)[s0] -> (0, d0, d1, d2 + s0), dramMap = (d0, d1, d2)[s0] -> (0, 0, d0 floordiv s0), meshShape = 1x2, chipIds = [0, 1]>
      func.func private @forward_const_eval_0(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
        %0 = "ttir.exp"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
        return %0 : tensor<32x32xf32>
      }
      func.func @forward(%arg0: tensor<32x32xf32> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<32x32xf32> {
        %0 = ttcore.load_cached(@forward_const_eval_0, [%arg0]) : (tensor<32x32xf32>) -> tensor<32x32xf32>
        return %0 : tensor<32x32xf32>
      }
    }
  }
  ttcore.cpu_module {
    builtin.module {
      func.func @hoisted(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
        return %arg0 : tensor<32x32xf32>
      }
    }
  }
}
