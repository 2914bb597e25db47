"""`pybuda.tvm_to_python`: a framework model written out as a PyBuda module's Python source.

tt-buda traces a model through TVM and writes a PyBudaModule of pybuda.op calls. Here the model's
`torch.export` graph (core ATen ops, the graph our importer lowers) is written out instead: a PyBudaModule
subclass in generated_modules/<graph name>.py of the working directory, holding the model's parameters and
buffers and a forward that is the exported graph's code. It is an ordinary PyBudaModule: placed on a TTDevice it
compiles through the importer like any other. PyTorch models only (PyTorchModule or a torch.nn.Module).
"""

from __future__ import annotations

import importlib
import os
import re
import sys
import textwrap
from dataclasses import dataclass

import torch
from torch.export.graph_signature import InputKind

from pybuda.config import CompilerConfig, PyBudaError
from pybuda.module import PyBudaModule, PyTorchModule
from pybuda.op.eval.common import compare_tensor_to_golden
from pybuda.tensor import Tensor

GENERATED_PACKAGE = "generated_modules"


@dataclass(frozen=True)
class PythonWriter:
    """Where one generated module was written and the class it defines (tt-buda's writer's queries)."""
    module_name: str
    class_name: str
    filename: str

    def import_module_path(self) -> str:
        return f"{GENERATED_PACKAGE}.{self.module_name}"


def _torch_module(framework_mod) -> torch.nn.Module:
    if isinstance(framework_mod, PyTorchModule):
        return framework_mod.module
    if isinstance(framework_mod, torch.nn.Module) and not isinstance(framework_mod, PyBudaModule):
        return framework_mod
    raise PyBudaError(f"tvm_to_python: {type(framework_mod).__name__} is not supported; PyTorch models "
                      "(PyTorchModule or a torch.nn.Module) are written out from their torch.export graph")


def _identifier(name: str) -> str:
    cleaned = re.sub(r"\W", "_", name)
    return cleaned if cleaned and not cleaned[0].isdigit() else f"m_{cleaned}"


def _source(class_name: str, model: torch.nn.Module, program) -> str:
    """The generated module's text: parameters and buffers as attributes named as the graph's placeholders."""
    state = program.state_dict
    members, framework_names, graph_args, user_args = [], {}, [], []
    for spec in program.graph_signature.input_specs:
        arg = spec.arg.name
        if spec.kind == InputKind.USER_INPUT:
            user_args.append(arg)
            graph_args.append(arg)
            continue
        if spec.kind not in (InputKind.PARAMETER, InputKind.BUFFER):
            raise PyBudaError(f"tvm_to_python: {class_name}'s graph has a {spec.kind.name.lower()} input "
                              f"'{spec.target}'; parameters and buffers are written out")
        value = state[spec.target] if spec.target in state else program.constants[spec.target]
        shape, dtype = list(value.shape), str(value.dtype)
        members.append(f"self.{arg} = pybuda.Parameter(torch.zeros({shape}, dtype={dtype}), "
                       f"requires_grad={value.requires_grad}, name={spec.target!r})"
                       if spec.kind == InputKind.PARAMETER else
                       f"self.register_buffer({arg!r}, torch.zeros({shape}, dtype={dtype}))")
        framework_names[arg] = spec.target
        graph_args.append(f"self.{arg}")
    graph_code = program.graph_module.code.strip().replace("def forward(self,", "def graph(self,", 1)
    return "\n".join([
        f'"""{class_name}: {type(model).__name__}\'s torch.export graph as a PyBudaModule (pybuda.tvm_to_python)."""',
        "import torch",
        "from torch import device  # noqa: F401  (the graph's code may name devices)",
        "",
        "import pybuda",
        "",
        "",
        f"class {class_name}(pybuda.PyBudaModule):",
        "    # attribute -> the framework model's state dict key",
        f"    FRAMEWORK_NAMES = {framework_names!r}",
        "",
        "    def __init__(self, name):",
        "        super().__init__(name)",
        *[f"        {line}" for line in members],
        "",
        "    def process_framework_parameters(self, model):",
        "        state = (model.module if isinstance(model, pybuda.PyTorchModule) else model).state_dict()",
        "        with torch.no_grad():",
        "            for attribute, key in self.FRAMEWORK_NAMES.items():",
        "                getattr(self, attribute).copy_(state[key])",
        "",
        f"    def forward(self, {', '.join(user_args)}):",
        f"        outputs = self.graph({', '.join(graph_args)})",
        "        return outputs[0] if len(outputs) == 1 else outputs",
        "",
        textwrap.indent(graph_code, "    "),
        "",
    ])


def _flat_inputs(inputs) -> tuple:
    return tuple(x.value() if isinstance(x, Tensor) else x for x in inputs)


def _instantiate(writer: PythonWriter, name: str, model: torch.nn.Module) -> PyBudaModule:
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    generated = getattr(importlib.import_module(writer.import_module_path()), writer.class_name)(name)
    generated.process_framework_parameters(model)
    return generated


def _verify(generated: PyBudaModule, model: torch.nn.Module, values: tuple, verify_cfg) -> None:
    """The generated module's outputs (computed in torch) against the framework model's."""
    with torch.no_grad():
        expected, got = model(*values), generated(*values)
    expected = expected if isinstance(expected, (tuple, list)) else (expected,)
    got = got if isinstance(got, (tuple, list)) else (got,)
    for i, (e, g) in enumerate(zip(expected, got)):
        if not compare_tensor_to_golden(f"{generated.name} output {i}", e, g, verify_cfg=verify_cfg):
            raise PyBudaError(f"tvm_to_python: the generated {type(generated).__name__} output {i} does not match "
                              "the framework's")


def compile_tvm_to_python(framework_mod, graph_name: str, inputs, compiler_cfg: CompilerConfig | None = None,
                          verify_cfg=None, input_names=None) -> tuple[list[PythonWriter], tuple]:
    """Write `framework_mod` traced on `inputs` as generated_modules/<graph_name>.py; returns its writer (in a
    list, as tt-buda's per-device writers) and the inputs as torch tensors. Given a `verify_cfg`, the generated
    module's outputs are checked against the framework's on the inputs (in torch). The compiler configuration is
    checked here; it applies where the generated module compiles (on its device)."""
    if input_names:
        raise PyBudaError("tvm_to_python: input_names are not supported; the generated forward takes the model's own "
                          "argument names")
    (compiler_cfg or CompilerConfig()).check()
    model = _torch_module(framework_mod).eval()
    values = _flat_inputs(inputs)
    with torch.no_grad():
        program = torch.export.export(model, values)
    module_name = _identifier(graph_name)
    class_name = _identifier(getattr(framework_mod, "name", None) or type(model).__name__)
    directory = os.path.join(os.getcwd(), GENERATED_PACKAGE)
    os.makedirs(directory, exist_ok=True)
    filename = os.path.join(directory, f"{module_name}.py")
    with open(filename, "w", encoding="utf-8") as f:
        f.write(_source(class_name, model, program))
    writer = PythonWriter(module_name, class_name, filename)
    sys.modules.pop(writer.import_module_path(), None)  # a module written again is read again
    importlib.invalidate_caches()
    if verify_cfg is not None:
        _verify(_instantiate(writer, graph_name, model), model, values, verify_cfg)
    return [writer], values


def generate_pybuda_module(framework_mod, inputs, compiler_cfg: CompilerConfig | None = None,
                           graph_name: str | None = None, verify_cfg=None, clean_later: bool = False,
                           input_names=None) -> tuple[list[PyBudaModule], list[str], tuple]:
    """The generated module instantiated with the framework model's parameters: ([module], ["TTDevice"], the
    inputs as torch tensors). `clean_later` removes the generated file once imported."""
    model = _torch_module(framework_mod)
    graph_name = graph_name or getattr(framework_mod, "name", None) or type(model).__name__
    writers, values = compile_tvm_to_python(framework_mod, graph_name, inputs, compiler_cfg, verify_cfg, input_names)
    generated = _instantiate(writers[0], graph_name, model)
    if clean_later:
        os.remove(writers[0].filename)
    return [generated], ["TTDevice"], values
