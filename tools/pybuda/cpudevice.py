"""`pybuda.cpudevice`: the CPUDevice class's module path in tt-buda (it lives with the other devices)."""

from pybuda.device import CPUDevice

__all__ = ["CPUDevice"]
