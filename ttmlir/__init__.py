"""ttmlir: Tenstorrent's tt-mlir compiler stack in pure Python on xDSL."""

__version__ = "0.1.0"
