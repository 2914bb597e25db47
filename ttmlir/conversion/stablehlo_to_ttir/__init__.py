"""StableHLO (with shardy and GSPMD annotations) to TTIR: `--convert-stablehlo-to-ttir`."""
