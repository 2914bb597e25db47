"""`pybuda.ttdevice`: the TTDevice class's module path in tt-buda (it lives with the other devices) and
`get_device_config`, the description of the system a TTDevice compiles for."""

from __future__ import annotations

from pybuda._C.backend_api import BackendDevice, BackendType, DeviceConfig
from pybuda.config import DEVICE_CONFIGS, PyBudaError
from pybuda.device import TTDevice

__all__ = ["TTDevice", "get_device_config"]

# tt-buda's arguments naming a silicon system's backend files: (argument, the value meaning "none given")
_BACKEND_FILES = (("backend_cluster_descriptor_path", ""), ("backend_runtime_params_path", ""),
                  ("store_backend_db_to_yaml", False), ("device_yaml", ""),
                  ("backend_device_descriptor_path_override", None))


def get_device_config(arch: BackendDevice, chip_ids=None, backend_cluster_descriptor_path: str = "",
                      backend_runtime_params_path: str = "", store_backend_db_to_yaml: bool = False,
                      backend_type: BackendType = BackendType.NoBackend, device_yaml: str = "",
                      backend_output_dir: str = "./tt_build", backend_device_descriptor_path_override=None,
                      harvesting_mask: int = 0) -> DeviceConfig:
    """The simulated chip of `arch` (one, id 0): its grid, L1 and DRAM sizes come from ttmlir.hardware."""
    given = locals()
    simulated = list(DEVICE_CONFIGS.values())
    if arch not in simulated:
        raise PyBudaError(f"get_device_config: {getattr(arch, 'name', arch)} is not simulated; supported: "
                          f"{', '.join('BackendDevice.' + a.name for a in simulated)}")
    if list(chip_ids or []) not in ([], [0]):
        raise PyBudaError(f"get_device_config: chip ids {list(chip_ids)} asked for; the simulated system has one "
                          "chip (id 0)")
    for name, none in _BACKEND_FILES:
        if given[name] != none:
            raise PyBudaError(f"get_device_config({name}={given[name]!r}) is not supported: the simulated chip has "
                              "no backend files")
    if harvesting_mask:
        raise PyBudaError(f"get_device_config(harvesting_mask={harvesting_mask:#x}) is not supported: the simulated "
                          "chips are unharvested")
    return DeviceConfig(arch, backend_type.value)
