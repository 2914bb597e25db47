"""TTIR to TTNN: `--convert-ttir-to-ttnn`."""
