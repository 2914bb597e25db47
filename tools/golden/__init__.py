"""Golden (reference) computations for TTIR ops; see `golden.mapping`."""
