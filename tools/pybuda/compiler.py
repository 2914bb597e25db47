"""Compiling a wrapped module: export, import to TTIR, and the backend pipeline per device segment."""

from __future__ import annotations

import torch
import torch.utils._pytree as pytree

from pybuda.compiled import CompiledModel, weight_format
from pybuda.config import CompilerConfig, PyBudaError


def compile_module(module, sample_inputs, cfg: CompilerConfig, arch: str, name: str | None = None) -> CompiledModel:
    """`module` (a pybuda wrapper or a torch.nn.Module) compiled for `arch` from `sample_inputs`' shapes."""
    from rich.progress import Progress

    from ttmlir.compiler import compile_ttir
    from ttmlir.diagnostics import DiagnosticError
    from ttmlir.frontends.pytorch import ImportError_, export, import_program

    from ttmlir.frontends.onnx import OnnxImportError

    try:
        torch_module = module.torch_module() if hasattr(module, "torch_module") else module
    except OnnxImportError as exc:
        raise PyBudaError(f"{getattr(module, 'name', 'module')}: {exc}") from None
    name = name or getattr(module, "name", None) or type(torch_module).__name__
    samples = tuple(_torch(x) for x in sample_inputs)
    try:
        with torch.no_grad():
            program = export(torch_module, samples)
        plan = import_program(program, cpu_fallback=cfg.enable_tvm_cpu_fallback, name=_symbol(name),
                              weight_dtypes=weight_format(cfg))
    except ImportError_ as exc:
        raise PyBudaError(f"{name}: {exc}") from None
    binaries: list[bytes | None] = []
    device_segments = sum(1 for s in plan.segments if s.kind == "device")
    with Progress(transient=True, disable=device_segments < 2 and not cfg.verbose) as progress:
        task = progress.add_task(f"compiling {name}", total=device_segments)
        for i, seg in enumerate(plan.segments):
            if seg.kind != "device":
                binaries.append(None)
                continue
            try:
                binaries.append(compile_ttir(seg.text, f"{_symbol(name)}_{i}.mlir",
                                             pipeline_options=f"mock-system-desc-arch={arch}"))
            except DiagnosticError as exc:
                raise PyBudaError(f"{name}: compiling device segment {i} failed: "
                                  f"{str(exc).strip().splitlines()[0]}") from None
            progress.advance(task)
    leaves = pytree.tree_leaves(samples)
    return CompiledModel(plan, binaries, arch, out_spec=program.call_spec.out_spec,
                         input_shapes=[list(x.shape) for x in leaves], input_dtypes=[str(x.dtype) for x in leaves])


def _torch(x):
    from pybuda.tensor import Tensor

    return x.value() if isinstance(x, Tensor) else x


def _symbol(name: str) -> str:
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name) or "module"
