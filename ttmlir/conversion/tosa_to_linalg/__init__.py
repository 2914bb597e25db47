"""TOSA to linalg: the elementwise TOSA ops `--convert-ttir-to-linalg` emits, as MLIR's tosa-to-linalg lowers them."""
