"""Tenstorrent device images (TTI): a zip of everything a device needs to run without compiling.

    device.json                          device, modules, segments, input/output shapes, versions
    compile_and_runtime_config.json      the compiler configuration used
    backend_build_binaries/*.ttnn        one flatbuffer per device segment (it carries its system descriptor)
    backend_build_binaries/device_desc.yaml   the simulated chip's facts
    tensors/parameters.pt                parameters and folded constants, by graph value
    module_files/program.pt2             the exported graph, for the segments that run on the CPU
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from dataclasses import fields

import torch

from pybuda._C.backend_api import BackendDevice, BackendType
from pybuda.config import CompilerConfig, PyBudaError, _get_global_compiler_config

FORMAT_VERSION = 1


class TTDeviceImage:
    def __init__(self, device_name: str, arch: BackendDevice, devtype: BackendType, compiled: list,
                 config: CompilerConfig, module_names: list[str]):
        self.device_name, self.arch, self.devtype = device_name, arch, devtype
        self.compiled, self.config, self.module_names = compiled, config, module_names

    @classmethod
    def from_device(cls, device) -> "TTDeviceImage":
        return cls(device.name, device.arch, device.devtype, list(device.compiled), _get_global_compiler_config(),
                   [m.name for m in device.modules])

    def get_input_shapes(self) -> list[list[int]]:
        return self.compiled[0].input_shapes if self.compiled else []

    def info(self) -> None:
        print(self._info_text())

    def _info_text(self) -> str:
        from ttmlir import __version__, hardware

        facts = hardware.CHIPS[self.arch.value]
        return "\n".join([
            "Image Info...", "- Version Info:", f"      - ttmlir_version: {__version__}",
            f"- Device Name: {self.device_name}", "", "Device Info...", f"- arch: {self.arch}",
            "- chip_ids: [0]", f"- backend device type: {self.devtype}",
            f"- grid size: {list(facts.grid)}", "- harvested rows: [0]", "", "Compilation Graph State...",
            "- training: False", f"- ordered input shapes: {self.get_input_shapes()}", "- ordered targets shapes: []"])

    # --- on disk ----------------------------------------------------------------------------------------

    def save(self, path: str) -> None:
        from ttmlir import __version__, hardware

        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        modules, tensors = [], {}
        if any(not hasattr(c, "plan") for c in self.compiled):
            raise PyBudaError("device images hold PyTorch, ONNX and PyBuda modules; a JaxModule is not supported")
        for m, (name, c) in enumerate(zip(self.module_names, self.compiled)):
            segments = [{k: getattr(s, k) for k in ("kind", "nodes", "inputs", "outputs", "kinds", "ops",
                                                    "out_dtypes")} for s in c.plan.segments]
            modules.append({"name": name, "segments": segments, "user_inputs": c.plan.user_inputs,
                            "outputs": c.plan.outputs, "parameters": c.plan.parameters,
                            "input_shapes": c.input_shapes, "input_dtypes": c.input_dtypes,
                            "output_shapes": c.output_shapes,
                            "out_spec": torch.utils._pytree.treespec_dumps(c.out_spec) if c.out_spec else None,
                            "needs_graph": any(s.kind == "cpu" for s in c.plan.segments)})
            tensors[m] = c.plan.tensors
        facts = hardware.CHIPS[self.arch.value]
        device = {"format_version": FORMAT_VERSION, "ttmlir_version": __version__, "device_name": self.device_name,
                  "arch": self.arch.name, "devtype": self.devtype.name, "chip_ids": [0], "grid_size": list(facts.grid),
                  "harvested_rows": [0], "training": False, "modules": modules}
        tmp = path + ".tmp"
        try:
            with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("device.json", json.dumps(device, indent=2))
                z.writestr("compile_and_runtime_config.json", json.dumps(self.config.to_json(), indent=2))
                z.writestr("backend_build_binaries/device_desc.yaml",
                           "".join(f"{f.name}: {list(v) if isinstance(v := getattr(facts, f.name), tuple) else v}\n"
                                   for f in fields(facts)))
                for m, c in enumerate(self.compiled):
                    for i, binary in enumerate(c.binaries):
                        if binary is not None:
                            z.writestr(f"backend_build_binaries/{modules[m]['name']}_{i}.ttnn", binary)
                    buf = io.BytesIO()
                    torch.save(tensors[m], buf)
                    z.writestr(f"tensors/{modules[m]['name']}.pt", buf.getvalue())
                    if modules[m]["needs_graph"]:
                        buf = io.BytesIO()
                        torch.export.save(c.plan.program, buf)
                        z.writestr(f"module_files/{modules[m]['name']}.pt2", buf.getvalue())
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)

    @classmethod
    def load_from_disk(cls, img_path: str) -> "TTDeviceImage":
        from pybuda.compiled import CompiledModel
        from ttmlir.frontends.pytorch import Plan, Segment

        try:
            z = zipfile.ZipFile(img_path)
        except (OSError, zipfile.BadZipFile) as exc:
            raise PyBudaError(f"{img_path}: not a device image ({exc})") from None
        with z:
            try:
                device = json.loads(z.read("device.json"))
                config = CompilerConfig.from_json(json.loads(z.read("compile_and_runtime_config.json")))
            except (KeyError, ValueError) as exc:
                raise PyBudaError(f"{img_path}: not a device image ({exc})") from None
            if device.get("format_version") != FORMAT_VERSION:
                raise PyBudaError(f"{img_path}: image format {device.get('format_version')} is not "
                                  f"{FORMAT_VERSION}; recompile it")
            compiled = []
            for m in device["modules"]:
                segments = [Segment(**s) for s in m["segments"]]
                tensors = torch.load(io.BytesIO(z.read(f"tensors/{m['name']}.pt")), weights_only=False)
                program = torch.export.load(io.BytesIO(z.read(f"module_files/{m['name']}.pt2"))) \
                    if m["needs_graph"] else None
                binaries = [z.read(f"backend_build_binaries/{m['name']}_{i}.ttnn") if s.kind == "device" else None
                            for i, s in enumerate(segments)]
                plan = Plan(segments, tensors, m["parameters"], m["user_inputs"], m["outputs"], program)
                out_spec = torch.utils._pytree.treespec_loads(m["out_spec"]) if m["out_spec"] else None
                compiled.append(CompiledModel(plan, binaries, BackendDevice[device["arch"]].value, out_spec=out_spec,
                                              input_shapes=m["input_shapes"], input_dtypes=m["input_dtypes"],
                                              output_shapes=m["output_shapes"]))
        return cls(device["device_name"], BackendDevice[device["arch"]], BackendType[device["devtype"]], compiled,
                   config, [m["name"] for m in device["modules"]])
