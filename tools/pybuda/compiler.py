"""Compiling a wrapped module: export, import to TTIR, and the backend pipeline per device segment."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from types import SimpleNamespace

import torch
import torch.utils._pytree as pytree

from pybuda.compiled import HALF_TYPES, CompiledModel, weight_format
from pybuda.config import CompilerConfig, DataFormat, PyBudaError, vetoed


def compile_module(module, sample_inputs, cfg: CompilerConfig, arch: str, name: str | None = None,
                   lower=None) -> CompiledModel:
    """`module` (a pybuda wrapper or a torch.nn.Module) compiled for `arch` from `sample_inputs`' shapes.
    `lower` (default: the whole backend to a `.ttnn` binary) is what each device segment's TTIR text is turned
    into; `pybuda_compile` passes an earlier stage to stop at its compile depth."""
    from ttmlir.frontends.onnx import OnnxImportError
    from ttmlir.frontends.pytorch import export
    from ttmlir.frontends.pytorch_builder import ImportError_

    cfg = vetoed(cfg)
    cfg.check()
    if getattr(module, "framework", None) == "jax":
        if lower is not None:
            raise PyBudaError(f"{module.name}: a JaxModule compiles whole (CompileDepth.FULL)")
        if cfg.changes_precision or cfg.enable_tvm_cpu_fallback:
            raise PyBudaError(f"{module.name}: mixed precision and CPU fallback are not supported for JaxModule")
        return CompiledJax(module, tuple(_torch(x) for x in sample_inputs), arch,
                           f"mock-system-desc-arch={arch} {cfg.pipeline_options()}")

    try:
        torch_module = module.torch_module() if hasattr(module, "torch_module") else module
    except OnnxImportError as exc:
        raise PyBudaError(f"{getattr(module, 'name', 'module')}: {exc}") from None
    name = name or getattr(module, "name", None) or type(torch_module).__name__
    samples = tuple(_torch(x) for x in sample_inputs)
    compute_dtype = HALF_TYPES.get(cfg.default_df_override)
    if compute_dtype is not None:  # default_df_override: the whole model (weights and activations) in that format
        torch_module = copy.deepcopy(torch_module).to(compute_dtype)
        samples = tuple(x.to(compute_dtype) if isinstance(x, torch.Tensor) and x.is_floating_point() else x
                        for x in samples)
    try:
        with torch.no_grad():
            program = export(torch_module, samples)
    except ImportError_ as exc:
        raise PyBudaError(f"{name}: {exc}") from None
    leaves = pytree.tree_leaves(samples)
    return compile_program(program, leaves, cfg, arch, name, weight_format(cfg, _formats_of(torch_module)),
                           out_spec=program.call_spec.out_spec, compute_dtype=compute_dtype, lower=lower)


def compile_program(program, sample_leaves, cfg: CompilerConfig, arch: str, name: str, weight_dtypes=None,
                    out_spec=None, compute_dtype=None, lower=None) -> CompiledModel:
    """An exported program (or a graph of core ATen ops with its inputs, `graph_program`) imported to TTIR and
    compiled for `arch`, one `.ttnn` per device segment (or what `lower(text, filename, pipeline_options)` makes
    of the segment's TTIR)."""
    from rich.console import Console
    from rich.progress import Progress

    from ttmlir.compiler import compile_ttir
    from ttmlir.diagnostics import DiagnosticError
    from ttmlir.frontends.pytorch import import_program
    from ttmlir.frontends.pytorch_builder import ImportError_

    cfg = vetoed(cfg)  # the training path comes here directly
    # progress on a terminal: importing, then one step per device segment's backend compile
    with Progress(transient=True, disable=not cfg.verbose and not Console().is_terminal) as progress:
        task = progress.add_task(f"{name}: importing to TTIR", total=None)
        try:
            plan = import_program(program, cpu_fallback=cfg.enable_tvm_cpu_fallback, name=_symbol(name),
                                  weight_dtypes=weight_dtypes)
        except ImportError_ as exc:
            raise PyBudaError(f"{name}: {exc}") from None
        device_segments = sum(1 for s in plan.segments if s.kind == "device")
        progress.update(task, description=f"{name}: compiling", total=device_segments, completed=0)
        lower = lower or compile_ttir
        binaries: list[bytes | None] = []
        for i, seg in enumerate(plan.segments):
            if seg.kind != "device":
                binaries.append(None)
                continue
            try:
                binaries.append(lower(seg.text, f"{_symbol(name)}_{i}.mlir",
                                             pipeline_options=f"mock-system-desc-arch={arch} {cfg.pipeline_options()}"))
            except DiagnosticError as exc:
                raise PyBudaError(f"{name}: compiling device segment {i} failed{_where(exc.diagnostic)}: "
                                  f"{exc.diagnostic.message}") from None
            progress.advance(task)
    return CompiledModel(plan, binaries, arch, out_spec=out_spec,
                         input_shapes=[list(x.shape) for x in sample_leaves],
                         input_dtypes=[str(x.dtype) for x in sample_leaves], compute_dtype=compute_dtype)


@dataclass
class GraphProgram:
    """A graph of core ATen ops whose placeholders are all user inputs, in the shape `import_program` reads an
    ExportedProgram (AOT autograd's forward/backward graphs and traced optimizer rules need no re-export)."""
    graph: torch.fx.Graph
    graph_signature: object
    state_dict: dict
    constants: dict


def graph_program(gm: torch.fx.GraphModule, constants: dict[int, torch.Tensor] | None = None) -> GraphProgram:
    """`gm` as a program: its placeholders are user inputs, except those numbered in `constants` (frozen weights,
    buffers), which the importer folds into whatever depends only on them (masks, rotary tables)."""
    from torch.export.graph_signature import InputKind, InputSpec, TensorArgument

    constants = constants or {}
    specs, values = [], {}
    for i, node in enumerate(n for n in gm.graph.nodes if n.op == "placeholder"):
        if i in constants:
            specs.append(InputSpec(InputKind.CONSTANT_TENSOR, TensorArgument(node.name), node.name))
            values[node.name] = constants[i]
        else:
            specs.append(InputSpec(InputKind.USER_INPUT, TensorArgument(node.name), None))
    return GraphProgram(gm.graph, SimpleNamespace(input_specs=specs), {}, values)


def _formats_of(module) -> dict[str, DataFormat]:
    """Parameters given a data format with Parameter.set_data_format, by their name in the module."""
    if not isinstance(module, torch.nn.Module):
        return {}
    return {name: p.data_format for name, p in module.named_parameters() if getattr(p, "data_format", None)}


class CompiledJax:
    """A JaxModule compiled through StableHLO: one `.ttnn` binary taking the variables' leaves, then the inputs."""

    def __init__(self, module, sample_inputs, arch: str, pipeline_options: str):
        import jax
        import numpy as np

        from ttmlir.diagnostics import DiagnosticError
        from ttmlir.frontends.jax import compile_stablehlo

        self.module, self.arch, self.last_report = module, arch, None
        fn, variables = module.function()
        self.leaves = jax.tree_util.tree_leaves(variables)
        self.input_shapes = [list(x.shape) for x in sample_inputs]
        tree = jax.tree_util.tree_structure(variables)

        def flat(*args):
            return fn(jax.tree_util.tree_unflatten(tree, args[:len(self.leaves)]), *args[len(self.leaves):])

        args = [*self.leaves, *[np.asarray(x.detach().numpy()) for x in sample_inputs]]
        try:
            self.binary = compile_stablehlo(jax.jit(flat).lower(*args).as_text(), f"<jax:{module.name}>",
                                            pipeline_options)
        except DiagnosticError as exc:
            raise PyBudaError(f"{module.name}: compiling failed: {exc.diagnostic.message}") from None

    def run(self, inputs: list) -> list:
        import numpy as np
        import torch

        from ttmlir.frontends.jax import run_binary

        for i, (x, shape) in enumerate(zip(inputs, self.input_shapes)):
            if list(x.shape) != shape:
                raise PyBudaError(f"input {i} has shape {list(x.shape)}; the module was compiled for {shape}")
        values = run_binary(self.binary, [*self.leaves, *[np.asarray(x.detach().numpy()) for x in inputs]],
                            self.arch)
        return [torch.from_numpy(np.array(v)) for v in values]

    def placement(self) -> list:
        return []

    def placement_report(self) -> str:
        return f"{self.module.name}: a JAX function, all of it on the {self.arch} device"

    def weight_formats(self) -> dict:
        return {}


def _where(diagnostic) -> str:
    """The graph node a diagnostic's op was lowered from (the importer names each op's location after it)."""
    if diagnostic.pos is None or diagnostic.text is None:
        return ""
    end = diagnostic.text.find("\n", diagnostic.pos)
    line = diagnostic.text[diagnostic.pos:end if end >= 0 else None]
    found = re.search(r'loc\("([^"]+)"\)', line)
    return f" at {found.group(1)}" if found else ""


def _torch(x):
    from pybuda.tensor import Tensor

    return x.value() if isinstance(x, Tensor) else x


def _symbol(name: str) -> str:
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name) or "module"
