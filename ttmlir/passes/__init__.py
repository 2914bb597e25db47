"""One registry of passes and pipelines, shared by `ttmlir-opt`, pipeline strings and Python.

A pass is an xDSL `ModulePass` dataclass; its fields are its options, spelled with dashes on the
command line (`system_desc_path` is `system-desc-path=...`). Every registered name is also a
Python function on a module: `ttmlir.passes.ttir_to_ttnn_backend_pipeline(module, **options)`.
"""

from __future__ import annotations

import dataclasses
import shlex
import types
from typing import Any, Callable

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from ttmlir.cli import UserError


class PassFailure(Exception):
    """A pass could not do its job on `op`; reported as a located diagnostic."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op


def _registry() -> dict[str, type[ModulePass]]:
    from ttmlir.passes.register_device import RegisterDevicePass, UnwrapDeviceModulePass, WrapDeviceModulePass
    from ttmlir.passes.ttir_fusing import TTIRFusingPass
    from ttmlir.passes.convert_ttir_to_ttnn import ConvertTTIRToTTNNPass
    from ttmlir.passes.ttnn_pipelines import TTIRToTTNNBackendPipeline
    from ttmlir.passes.ttnn_deallocate import TTNNDeallocatePass
    from ttmlir.passes.ttnn_layout import TTNNLayoutPass
    from ttmlir.passes.ttnn_decompose_layouts import TTNNDecomposeLayoutsPass
    from ttmlir.passes.ttnn_workarounds import TTNNWorkaroundPass
    from ttmlir.passes.cpu_hoist import TTIRCPUHoistTransformPass
    from ttmlir.passes.element_type_normalization import ElementTypeNormalizationPass
    from ttmlir.passes.flatten_sliding_window import TTIRFlattenSlidingWindowPass
    from ttmlir.passes.ttir_to_ttir_decomposition import TTIRToTTIRDecompositionPass
    from ttmlir.passes.implicit_broadcast_fold import TTIRImplicitBroadcastFoldPass
    from ttmlir.passes.ttnn_decomposition import TTNNDecompositionPass
    from ttmlir.passes.mark_functions_as_forward import TTCoreMarkFunctionsAsForwardPass
    from ttmlir.passes.resolve_composites import TTNNResolveCompositesPass
    from ttmlir.passes.ttnn_prepare_conv3d_weights import TTNNPrepareConv3dWeightsPass
    from ttmlir.passes.convert_ttkernel_to_emitc import ConvertTTKernelToEmitCPass
    from ttmlir.passes.convert_ttir_to_ttmetal import ConvertTTIRToTTMetalPass
    from ttmlir.passes.ttmetal_pipelines import TTIRToTTMetalBackendPipeline, TTIRToTTMetalPipeline
    from xdsl.transforms.canonicalize import CanonicalizePass
    from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

    passes = (RegisterDevicePass, WrapDeviceModulePass, UnwrapDeviceModulePass, TTIRFusingPass,
              TTIRCPUHoistTransformPass, ConvertTTIRToTTNNPass,
              TTNNLayoutPass, TTNNWorkaroundPass, TTNNDecomposeLayoutsPass, TTNNDeallocatePass, TTIRToTTNNBackendPipeline,
              TTCoreMarkFunctionsAsForwardPass, ElementTypeNormalizationPass, TTIRFlattenSlidingWindowPass, TTIRToTTIRDecompositionPass,
              TTIRImplicitBroadcastFoldPass, TTNNDecompositionPass, TTNNResolveCompositesPass, CanonicalizePass,
              CommonSubexpressionElimination, TTNNPrepareConv3dWeightsPass, ConvertTTKernelToEmitCPass,
              ConvertTTIRToTTMetalPass, TTIRToTTMetalPipeline, TTIRToTTMetalBackendPipeline)
    return {p.name: p for p in passes}


_PASSES: dict[str, type[ModulePass]] | None = None


def registered_passes() -> dict[str, type[ModulePass]]:
    global _PASSES
    if _PASSES is None:
        _PASSES = _registry()
        # a module named like its pass (ttnn_layout.py) is bound on this package by its import; the pass's Python
        # API (`ttmlir.passes.ttnn_layout(module)`) takes the name back (the module stays in sys.modules)
        for name in _PASSES:
            if isinstance(globals().get(attr := name.replace("-", "_")), types.ModuleType):
                globals()[attr] = _api(name)
    return _PASSES


def options_of(pass_class: type[ModulePass]) -> list[dataclasses.Field]:
    return [f for f in dataclasses.fields(pass_class) if not f.name.startswith("_")]


def _convert(field: dataclasses.Field, text: str) -> Any:
    default = field.default if field.default is not dataclasses.MISSING else field.default_factory()
    if isinstance(default, bool):
        if text not in ("true", "false", "1", "0"):
            raise UserError(f"invalid boolean '{text}'")
        return text in ("true", "1")
    if isinstance(default, int):
        return int(text)
    if isinstance(default, tuple):
        return tuple(int(x) for x in text.replace("x", ",").split(",") if x)
    return text


def make_pass(name: str, options: str = "") -> ModulePass:
    """A configured pass from its name and an MLIR option string `opt=val opt2=val`."""
    passes = registered_passes()
    if name not in passes:
        raise UserError(f"'{name}' does not refer to a registered pass or pass pipeline")
    pass_class = passes[name]
    fields = {f.name.replace("_", "-"): f for f in options_of(pass_class)}
    values = {}
    for item in shlex.split(options):
        key, _, value = item.partition("=")
        if key not in fields:
            raise UserError(f"no such option '{key}' for pass '{name}'")
        try:
            values[fields[key].name] = _convert(fields[key], value)
        except ValueError as error:
            raise UserError(f"invalid value '{value}' for option '{key}' of pass '{name}': {error}") from None
    return pass_class(**values)


def run_pass(module: ModuleOp, name: str, **options) -> ModuleOp:
    """Run a registered pass or pipeline on `module` in place and return it."""
    from ttmlir.dialects import make_context

    passes = registered_passes()
    if name not in passes:
        raise UserError(f"'{name}' does not refer to a registered pass or pass pipeline")
    passes[name](**options).apply(make_context(), getattr(module, "module_op", module))  # a builder Module too
    return module


def _api(name: str) -> Callable[..., ModuleOp]:
    return lambda module, **options: run_pass(module, name, **options)


def __getattr__(attr: str):
    """`ttmlir.passes.<pass_name_with_underscores>(module, **options)` for every registered pass."""
    name = attr.replace("_", "-")
    if not attr.startswith("_") and name in registered_passes():
        return globals().get(attr) or _api(name)
    raise AttributeError(f"module 'ttmlir.passes' has no attribute '{attr}'")
