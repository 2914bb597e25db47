"""TTNN back to TTIR: `--convert-ttnn-to-ttir`."""
