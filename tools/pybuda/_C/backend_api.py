"""The backend enums PyBuda scripts import: which chip, which backend, which device mode.

The simulated Wormhole (n150) and Blackhole (p150) chips of `ttmlir.hardware` stand in for silicon:
`BackendType.Silicon` and `BackendType.Golden` both run on that simulator.
"""

from __future__ import annotations

from enum import Enum


class BackendDevice(Enum):
    Grayskull = "grayskull"
    Wormhole_B0 = "wormhole_b0"
    Blackhole = "blackhole"

    @classmethod
    def from_string(cls, name: str) -> "BackendDevice":
        for member in cls:
            if member.value == name.lower() or member.name.lower() == name.lower():
                return member
        raise ValueError(f"unknown device architecture '{name}' (expected one of "
                         f"{', '.join(m.value for m in cls)})")

    def to_string(self) -> str:
        return self.value


class BackendType(Enum):
    Golden = "golden"
    Model = "model"
    Versim = "versim"
    Emulation = "emulation"
    NoBackend = "nobackend"
    Silicon = "silicon"

    @classmethod
    def from_string(cls, name: str) -> "BackendType":
        return next(m for m in cls if m.value == name.lower())


class DeviceMode(Enum):
    CompileAndRun = "CompileAndRun"
    CompileOnly = "CompileOnly"
    RunOnly = "RunOnly"
