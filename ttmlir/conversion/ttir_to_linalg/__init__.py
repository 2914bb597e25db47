"""TTIR out to MLIR's CPU dialects: `--convert-ttir-to-linalg`."""
