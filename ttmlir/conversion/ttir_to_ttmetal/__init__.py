"""TTIR to TTKernel + TTMetal: `--convert-ttir-to-ttmetal`."""
