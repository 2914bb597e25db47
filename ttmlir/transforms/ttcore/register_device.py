"""`--ttcore-register-device`: attach the system descriptor and the default device to a module."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass

from ttmlir import hardware
from ttmlir.dialects import ttcore
from ttmlir.errors import PassFailure


def device_module_of(module: ModuleOp) -> ModuleOp:
    """The module holding device code: the one inside `ttcore.device_module` if present."""
    for op in module.ops:
        if isinstance(op, ttcore.DeviceModuleOp):
            return next(iter(op.body.ops))
    return module


def cpu_module_of(module: ModuleOp, create: bool = False) -> ModuleOp | None:
    """The module inside `ttcore.cpu_module`, created beside the device module on request."""
    for op in module.ops:
        if isinstance(op, ttcore.CPUModuleOp):
            return next(iter(op.body.ops))
    if not create:
        return None
    inner = ModuleOp([])
    module.body.block.add_op(ttcore.CPUModuleOp(Region(Block([inner]))))
    return inner


def declared_mesh(module: ModuleOp) -> tuple[int, ...] | None:
    """The mesh a module declares in `ttcore.meshes` (its first one), on it or on its device module."""
    for holder in (module, device_module_of(module)):
        meshes = holder.attributes.get(ttcore.MeshesAttr.name)
        if isinstance(meshes, ttcore.MeshesAttr) and meshes.data:
            return tuple(meshes.data[0][1])
    return None


MESH_TOPOLOGIES = ("ring", "linear", "disabled")


@dataclass(frozen=True)
class RegisterDevicePass(ModulePass):
    """Attach `ttcore.system_desc` and `ttcore.device @default_device` (n150 by default)."""

    name: ClassVar[str] = "ttcore-register-device"
    system_desc_path: str = ""
    mock_system_desc_arch: str = "wormhole_b0"
    mesh_shape: tuple[int, ...] = ()  # none given: the module's `ttcore.meshes`, else one chip
    mesh_topology: tuple[str, ...] = ()  # per mesh axis: ring, linear or disabled (what the CCL ops route over)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        module = device_module_of(op)
        existing = next((o for o in module.ops if isinstance(o, ttcore.DeviceOp)), None)
        if existing is not None:  # a device given by hand still gets the system it is a part of, as upstream's
            if "ttcore.system_desc" not in module.attributes:
                module.attributes["ttcore.system_desc"] = self.system_desc(
                    module, existing.device_attr.data.mesh_shape or (1, 1))
            return
        mesh = self.mesh(op)
        system = self.system_desc(module, mesh)
        if len(mesh) != 2 or mesh[0] * mesh[1] > len(system.data.chip_desc_indices):
            raise PassFailure(op, f"mesh shape {'x'.join(map(str, mesh))} does not fit the "
                                  f"{len(system.data.chip_desc_indices)} chip(s) of the system descriptor")
        for topology in self.mesh_topology:
            if topology not in MESH_TOPOLOGIES:
                raise PassFailure(op, f"mesh-topology is a list of {', '.join(MESH_TOPOLOGIES)}, not '{topology}'")
        if self.mesh_topology and len(self.mesh_topology) != len(mesh):
            raise PassFailure(op, "expected meshTopology size to match meshShape rank")
        module.attributes["ttcore.system_desc"] = system
        device = ttcore.default_device(system.data, mesh, self.mesh_topology)
        device_op = ttcore.DeviceOp(properties={"sym_name": ttcore.StringAttr("default_device"), "device_attr": device})
        block = module.body.block
        if block.first_op is None:
            block.add_op(device_op)
        else:
            block.insert_op_before(device_op, block.first_op)

    def mesh(self, op: ModuleOp) -> tuple[int, ...]:
        """The mesh the module declares, which the option must agree with; else the option's, else one chip."""
        shape = declared_mesh(op)
        if shape is None:
            return tuple(self.mesh_shape) or (1, 1)
        if self.mesh_shape and tuple(self.mesh_shape) != shape:
            raise PassFailure(op, "Error determining mesh shape: Option.meshShape and mesh info from graph should be "
                                  "identical.")
        return shape

    def system_desc(self, module: ModuleOp, mesh: tuple[int, ...] = (1, 1)) -> ttcore.SystemDescAttr:
        existing = module.attributes.get("ttcore.system_desc")
        if isinstance(existing, ttcore.SystemDescAttr):
            return existing
        if self.system_desc_path:
            if not os.path.isfile(self.system_desc_path):
                raise PassFailure(module, f"system descriptor file '{self.system_desc_path}' does not exist")
            return read_system_desc(module, self.system_desc_path)
        if self.mock_system_desc_arch not in hardware.CHIPS:
            raise PassFailure(module, f"unknown mock-system-desc-arch '{self.mock_system_desc_arch}' (expected one "
                                      f"of {', '.join(hardware.CHIPS)})")
        chips = max(1, mesh[0] * mesh[1]) if len(mesh) == 2 else 1
        return ttcore.default_system_desc(self.mock_system_desc_arch, chips)


def read_system_desc(module: ModuleOp, path: str) -> ttcore.SystemDescAttr:
    """A system descriptor from a `.ttsys` flatbuffer (`ttrt query --save-artifacts`) or as text."""
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError

    from ttmlir.dialects import make_context
    from ttmlir.target import flatbuffer as fbu

    with open(path, "rb") as f:
        data = f.read()
    if data[4:8] in fbu.KIND_OF_IDENTIFIER:
        try:
            _, root = fbu.load_bytes(data, path, expect="ttsys")
        except fbu.BinaryError as exc:
            raise PassFailure(module, f"cannot read system descriptor: {exc}") from None
        return ttcore.SystemDescAttr(ttcore.SystemDesc(**fbu.system_desc_dict(root.systemDesc)))
    try:
        attr = Parser(make_context(), data.decode(), path).parse_attribute()
    except (UnicodeDecodeError, ParseError):
        raise PassFailure(module, f"cannot read system descriptor '{path}': neither a .ttsys flatbuffer nor a "
                                  f"textual #ttcore.system_desc") from None
    if not isinstance(attr, ttcore.SystemDescAttr):
        raise PassFailure(module, f"'{path}' holds {attr.name}, not a #ttcore.system_desc")
    return attr


@dataclass(frozen=True)
class WrapDeviceModulePass(ModulePass):
    """Wrap the top-level module's contents in `ttcore.device_module { builtin.module { ... } }`; the inner module
    takes the top-level one's attributes and, as upstream's, its name too (the top-level module keeps its name)."""

    name: ClassVar[str] = "ttcore-wrap-device-module"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if any(isinstance(o, (ttcore.DeviceModuleOp, ttcore.CPUModuleOp)) for o in op.ops):
            return
        inner = ModuleOp([], sym_name=op.sym_name)
        for child in list(op.ops):
            child.detach()
            inner.body.block.add_op(child)
        inner.attributes.update(op.attributes)
        op.attributes.clear()
        op.body.block.add_op(ttcore.DeviceModuleOp(Region(Block([inner]))))


@dataclass(frozen=True)
class UnwrapDeviceModulePass(ModulePass):
    """Lift the device module's contents back to the top level (the inverse of the wrap)."""

    name: ClassVar[str] = "ttcore-unwrap-device-module"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        wrapper = next((o for o in op.ops if isinstance(o, ttcore.DeviceModuleOp)), None)
        if wrapper is None:
            return
        inner = next(iter(wrapper.body.ops))
        for child in list(inner.ops):
            child.detach()
            op.body.block.insert_op_before(child, wrapper)
        op.attributes.update(inner.attributes)
        wrapper.detach()
        wrapper.erase()
