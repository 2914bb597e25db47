"""The simulated Wormhole/Blackhole runtime: devices, tensors, kernels, executor and perf model."""
