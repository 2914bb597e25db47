"""StableHLO-to-StableHLO passes (composites, complex numbers, fusing, CPU hoisting)."""
