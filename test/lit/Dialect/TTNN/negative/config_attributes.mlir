// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+1 {{duplicate or unknown struct parameter name: math_fidility}}
module attributes {test.compute = #ttnn.device_compute_kernel_config<math_fidility = hifi2>} {
}

// -----
// expected-error @+1 {{expected math_fidelity to be one of: lofi, hifi2, hifi3, hifi4}}
module attributes {test.compute = #ttnn.device_compute_kernel_config<math_fidelity = hifi5>} {
}

// -----
// expected-error @+1 {{struct is missing required parameter: per_core_n}}
module attributes {test.program = #ttnn.matmul_multi_core_reuse_multi_cast_dram_sharded_program_config<in0_block_w = 2, per_core_m = 1>} {
}
