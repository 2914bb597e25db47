"""`pybuda.ttdevice`: the TTDevice class's module path in tt-buda (it lives with the other devices)."""

from pybuda.device import TTDevice

__all__ = ["TTDevice"]
