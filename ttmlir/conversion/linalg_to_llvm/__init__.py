"""linalg (on tensors) to the LLVM dialect: bufferization, loops, and the LLVM conversion of the CPU module."""
