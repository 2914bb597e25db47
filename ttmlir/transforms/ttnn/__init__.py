"""TTNN-to-TTNN passes: layouts, workarounds, deallocation, fusing, const-eval, trace, export."""
