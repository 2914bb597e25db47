"""`pybuda.compile`: `pybuda_compile(device, name, *inputs, compiler_cfg=..., verify_cfg=...)`, the one-call compile
tt-buda's tests drive, and its `CompileResults`.

The module placed on the device goes through our compile path stage by stage, and `compiler_cfg.compile_depth`
says where it stops. tt-buda's depths map onto our stages:
  up to POST_AUTOGRAD_PASS          the model imported to TTIR              -> `initial_graph`
  PRE_LOWERING_PASS .. PRE_NETLIST  the TTIR lowered by the TTNN pipeline   -> `lowered_graph`
  GENERATE_NETLIST                  the `.ttnn` binary written              -> `netlist_filename`
  BACKEND_GOLDEN_VERIFY, FULL       the binary run on the simulated device  -> `outputs`, `perf_model_results`
`golden_outputs` are the model's own results (the framework run on the host); from a device run on they are the
device's, checked against the framework's when `verify_cfg` asks for checks.

The module is also callable: `pybuda.compile(module, sample_inputs=[...])` compiles a module in one call (the
tt-forge spelling our users have), the same as `pybuda.torch_compile.compile`."""

from __future__ import annotations

import os
import sys
import types

import torch
import torch.utils._pytree as pytree

from pybuda._C.graph import Graph
from pybuda.config import CompileDepth, CompilerConfig, PyBudaError, _get_global_compiler_config
from pybuda.tensor import Tensor

__all__ = ["CompileResults", "pybuda_compile", "LAST_SUCCESSFUL_STAGE", "_get_global_compiler_config"]

# the last stage pybuda_compile finished (tt-buda's tests print it when a compile fails); a stage name or None
LAST_SUCCESSFUL_STAGE: str | None = None

# (the first depth of a stage, the stage): a depth stops the compile after the last stage it reaches
_STAGES = ((CompileDepth.INIT_COMPILE, "ttir"), (CompileDepth.PRE_LOWERING_PASS, "ttnn"),
           (CompileDepth.GENERATE_NETLIST, "binary"), (CompileDepth.BACKEND_GOLDEN_VERIFY, "run"))


class _Missing(dict):
    """`pass_specific_output_kwargs`: what a tt-buda pass left for the test (placer solution, pattern matches);
    none of those passes exists here, so asking for one names that instead of a bare KeyError."""

    def __missing__(self, key):
        raise PyBudaError(f"pass_specific_output_kwargs['{key}']: this compile has no such pass output (there is "
                          "no placer or pattern matcher; ops are laid out by the TTNN backend)")


class CompileResults:
    """What pybuda_compile produced; fields a stage did not reach are None (outputs: empty)."""

    def __init__(self):
        self.outputs: list[Tensor] = []
        self.golden_outputs: list[torch.Tensor] = []
        self.golden_intermediates: dict[str, torch.Tensor] = {}
        self.initial_graph: Graph | None = None
        self.lowered_graph: Graph | None = None
        self.netlist_filename: str | None = None
        self.perf_model_results: dict[str, float] | None = None
        self.pass_specific_output_kwargs: dict = _Missing()
        self.stage: str | None = None


def _stage(depth: CompileDepth) -> str:
    return [stage for first, stage in _STAGES if first.value <= depth.value][-1]


def pybuda_compile(dev, graph_name: str, *inputs, targets=(), compiler_cfg: CompilerConfig | None = None,
                   verify_cfg=None, losses=None, microbatch_size: int = 1, microbatch_count: int = 1) -> CompileResults:
    """Compile the module placed on `dev` for `inputs`' shapes, up to `compiler_cfg.compile_depth` (the global
    configuration when none is given)."""
    global LAST_SUCCESSFUL_STAGE
    from pybuda.compiler import compile_module
    from pybuda.device import TTDevice
    from pybuda.verify import VerifyConfig

    cfg = compiler_cfg or _get_global_compiler_config()
    cfg.check(staged=True)
    if not isinstance(dev, TTDevice):
        raise PyBudaError(f"pybuda_compile compiles for a TTDevice, not {type(dev).__name__}")
    if len(dev.modules) != 1:
        raise PyBudaError(f"pybuda_compile: {dev.name} holds {len(dev.modules)} modules; it compiles one (place a "
                          "single module, or run a pipeline with run_inference)")
    if cfg.enable_training or targets or losses:
        raise PyBudaError("pybuda_compile compiles inference graphs; train with run_training or "
                          "verify_module(..., VerifyConfig(test_kind=TestKind.TRAINING))")
    if microbatch_count != 1:
        raise PyBudaError(f"pybuda_compile(microbatch_count={microbatch_count}): one microbatch is compiled; push "
                          "more through run_inference")
    values = tuple(x.value() if isinstance(x, Tensor) else x for x in pytree.tree_leaves(inputs))
    if microbatch_size != 1 and any(v.shape[:1] != (microbatch_size,) for v in values):
        raise PyBudaError(f"pybuda_compile(microbatch_size={microbatch_size}): the inputs' leading dimensions are "
                          f"{[v.shape[0] for v in values]}")
    verify_cfg = verify_cfg or VerifyConfig.disabled()
    module, stage = dev.modules[0], _stage(cfg.compile_depth)
    LAST_SUCCESSFUL_STAGE = None

    whole = CompilerConfig(**{**vars(cfg), "compile_depth": CompileDepth.FULL})  # the stage is `lower`'s to stop
    compiled = compile_module(module, values, whole, dev.arch_name, graph_name, lower=_LOWER[stage])
    results = CompileResults()
    results.stage = stage
    segment = next(i for i, s in enumerate(compiled.plan.segments) if s.kind == "device")
    seg = compiled.plan.segments[segment]
    results.initial_graph = Graph(graph_name, seg.text, arg_names=seg.inputs)
    LAST_SUCCESSFUL_STAGE = "ttir"
    with torch.no_grad():
        framework = [x for x in pytree.tree_leaves(module.torch_module()(*values)) if isinstance(x, torch.Tensor)]
    results.golden_outputs = framework
    if stage != "ttir":
        ttnn = compiled.binaries[segment] if stage == "ttnn" else _ttnn_stage(compiled.binaries[segment])
        results.lowered_graph = Graph(graph_name, ttnn, arg_names=seg.inputs)
        LAST_SUCCESSFUL_STAGE = "ttnn"
    if stage in ("binary", "run"):
        os.makedirs(cfg.backend_output_dir, exist_ok=True)
        results.netlist_filename = os.path.join(cfg.backend_output_dir, f"{_file_name(graph_name)}.ttnn")
        with open(results.netlist_filename, "wb") as f:
            f.write(compiled.binaries[segment])
        LAST_SUCCESSFUL_STAGE = "binary"
    if stage == "run":
        device_outputs = [x for x in compiled.run(list(values)) if isinstance(x, torch.Tensor)]
        report = compiled.last_report
        results.perf_model_results = {"device_ns": report.device_ns,
                                      **{f"{op.loc}:{op.op}": op.kernel_ns for op in report.ops}}
        results.golden_outputs = device_outputs
        _verify(graph_name, framework, device_outputs, verify_cfg)
        LAST_SUCCESSFUL_STAGE = "run"
    results.outputs = [Tensor.create_from_torch(x) for x in results.golden_outputs]
    return results


def _keep_ttir(text: str, filename: str, pipeline_options: str) -> str:
    return text


def _lower_to_ttnn(text: str, filename: str, pipeline_options: str):
    from ttmlir.compiler import lower_to_ttnn

    return lower_to_ttnn(text, filename, pipeline_options)


# what a device segment's TTIR becomes at each stage (None: the default, a whole `.ttnn` binary)
_LOWER = {"ttir": _keep_ttir, "ttnn": _lower_to_ttnn, "binary": None, "run": None}


def _ttnn_stage(binary: bytes) -> str:
    """The TTNN module text a `.ttnn` binary records of its compile."""
    from ttmlir.target import flatbuffer as fbu

    _, root = fbu.load_bytes(binary, "<pybuda_compile>", expect="ttnn")
    stages = {s.name.decode() if isinstance(s.name, bytes) else s.name: s.source for s in root.mlirStages}
    source = stages["ttnn"]
    return source.decode() if isinstance(source, bytes) else source


def _verify(name: str, framework: list, device: list, verify_cfg) -> None:
    from pybuda.op.eval.common import compare_tensor_to_golden

    if not verify_cfg.checks():
        return
    for i, (golden, calculated) in enumerate(zip(framework, device)):
        if not compare_tensor_to_golden(f"{name} output {i}", golden, calculated, is_buda=True, verify_cfg=verify_cfg):
            raise PyBudaError(f"{name}: output {i} on the device does not match the framework's")


def _file_name(name: str) -> str:
    return "".join(c if c.isalnum() or c in "_-." else "_" for c in name) or "graph"


class _CallableModule(types.ModuleType):
    """`pybuda.compile` is both this module (tt-buda's path) and the one-call compile our users call."""

    def __call__(self, module, sample_inputs, arch: str = "wormhole_b0"):
        from pybuda.torch_compile import compile as compile_one

        return compile_one(module, sample_inputs, arch)


sys.modules[__name__].__class__ = _CallableModule
