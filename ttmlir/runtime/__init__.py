"""The simulated Wormhole/Blackhole runtime: devices, tensors, kernels, executor and perf model."""


class RuntimeFailure(Exception):
    """An error while running a program, naming the op it happened in."""
