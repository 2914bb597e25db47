"""TOSA in: `--convert-tosa-to-ttir`."""
