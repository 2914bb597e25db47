// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+1 {{unsupported tile shape 7x32}}
func.func @bad_tile(%arg0: tensor<1x1x!ttcore.tile<7x32, f32>>) -> tensor<1x1x!ttcore.tile<7x32, f32>> {
  return %arg0 : tensor<1x1x!ttcore.tile<7x32, f32>>
}

// -----

// expected-error @+1 {{chip descriptor is missing field 'l1_size'}}
#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux"}], [{arch = <wormhole_b0>, grid = 8x8, num_dram_channels = 12, dram_channel_size = 1073741824}], [0], [1 : i32], [ 0x0x0x0]>
module attributes {ttcore.system_desc = #system_desc} {
}

// -----

// expected-error @+1 {{unknown descriptor field 'l2_size'}}
#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux"}], [{arch = <wormhole_b0>, l2_size = 1}], [0], [1 : i32], [ 0x0x0x0]>
module attributes {ttcore.system_desc = #system_desc} {
}

// -----

// expected-error @+1 {{expected a single builtin.module in its body}}
ttcore.device_module {
  func.func @f() {
    return
  }
}

// -----

func.func @float_key(%d: !ttcore.dict, %w: tensor<32x32xbf16>) {
  // expected-error @+1 {{'ttcore.set_key_value' op attribute 'key' failed to satisfy constraint: string attribute or index attribute}}
  ttcore.set_key_value %d[1.5 : f32] = %w : !ttcore.dict, tensor<32x32xbf16>
  return
}

// -----

func.func @nothing_read(%d: !ttcore.dict) {
  // expected-error @+1 {{'ttcore.get_key_value' op requires at least one result}}
  ttcore.get_key_value %d["k"] : (!ttcore.dict) -> ()
  return
}

// -----

// expected-error @+1 {{collapsed_intervals end index 4 (normalized: 4) is out of bounds for logical_shape rank 3}}
#too_far = #ttcore.metal_layout<logical_shape = 2x32x32, dim_alignments = 1x32x32, collapsed_intervals = dense<[[0, 4]]> : tensor<1x2xi64>, l1, sharded>

// -----

// An attribute's verifier reports at the alias that defines it.
// expected-error @+1 {{unsupported tile shape 32x1}}
#narrow = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x1, f32>, #ttnn.buffer_type<dram>>, <interleaved>>
func.func @narrow_tiles(%a: tensor<32x32xf32, #narrow>) -> tensor<32x32xf32, #narrow> {
  return %a : tensor<32x32xf32, #narrow>
}
