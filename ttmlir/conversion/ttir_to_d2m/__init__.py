"""TTIR to D2M: `--ttir-to-d2m`."""
