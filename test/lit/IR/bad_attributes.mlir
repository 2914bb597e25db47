// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+1 {{Expected `tile`, `row_major`, or `invalid`}}
func.func @bad_layout(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> attributes {l = #ttnn.layout<columns>} {
  return %arg0 : tensor<32x32xf32>
}

// -----

// expected-error @+1 {{core range end must not precede its start}}
func.func @bad_range(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> attributes {r = #ttnn.core_range<(7,7), (0,0)>} {
  return %arg0 : tensor<32x32xf32>
}

// -----

// expected-error @+1 {{expected a #ttnn.buffer_type}}
func.func @bad_memcfg(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> attributes {m = #ttnn.memory_config<#ttcore.arch<blackhole>, <interleaved>>} {
  return %arg0 : tensor<32x32xf32>
}

// -----

// expected-error @+1 {{expected a 2D mesh_shape}}
func.func @bad_mesh(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> attributes {m = #ttnn<mesh_shape 1x2x3>} {
  return %arg0 : tensor<32x32xf32>
}

// -----

// expected-error @+1 {{Expected `grayskull`, `wormhole_b0`, or `blackhole`}}
func.func @bad_arch(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> attributes {a = #ttcore.arch<quasar>} {
  return %arg0 : tensor<32x32xf32>
}

// -----

// expected-error @+1 {{expected #ttcore.grid}}
ttcore.device @d = <workerGrid = #ttcore.arch<blackhole>, l1Map = (d0) -> (d0), dramMap = (d0) -> (d0), meshShape = 1x1, chipIds = [0]>
