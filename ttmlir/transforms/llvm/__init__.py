"""Passes on the LLVM dialect: the calling-convention wrappers of CPU-hoisted functions."""
