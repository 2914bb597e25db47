"""Passes within the emitc dialect (MLIR's own, which the kernel path runs)."""
