"""The builder's public functions (seed 002): build, compile, execute, load and split modules.

    from builder.base.builder_apis import *
    module, builder = build_module(module0, "ttir")
    compile_and_execute_ttir(module0, device=device)

Artifacts (the TTIR text, the lowered text and the `.ttnn` or `.ttm` binary) go to
`ttir-builder-artifacts/<target>/`. The targets are `ttnn`, `ttmetal` (elementwise graphs so far), `emitpy` and
`emitc` (generated Python / C++ over the ttnn API; `execute_py` runs the Python on the simulated ttnn module).
"""

from __future__ import annotations

import bisect
import contextlib
import math
import inspect
import os
import tempfile
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable, Literal, Optional, Union

import torch
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr, UnknownLoc

from builder.base.builder import Builder, BuilderError, Module, Operand, is_private, torch_dtype
from builder.base.builder_enums import *  # noqa: F401,F403 - the seed imports enums from here too
from builder.base.builder_runtime import (TTBuilderCompileException, TTBuilderGoldenException,
                                          TTBuilderRuntimeException, execute_cpp, execute_fb, execute_py,
                                          not_supported, run_and_compare)
from builder.stablehlo.shardy_parallelization import (generate_all_module_permutations,
                                                      get_optimal_module_least_num_collectives)
from builder.stablehlo.stablehlo_builder import StableHLOBuilder
from builder.ttir.ttir_builder import TTIRBuilder
from builder.ttnn.ttnn_builder import TTNNBuilder
from ttmlir.ir.op_table import INDEX_OPERANDS, PASSES_VALUES
# upstream's module imports these pipelines, so seed code calls them unqualified after `import *`
from ttmlir.passes import (stablehlo_pipeline, stablehlo_to_ttir_pipeline, tt_populate_argument_types,
                           ttir_to_emitc_pipeline, ttir_to_emitpy_pipeline, ttir_to_ttmetal_backend_pipeline,
                           ttir_to_ttnn_backend_pipeline, ttir_to_ttnn_runtime_pipeline)
from ttmlir.ir.tt_op import TTOp

ARTIFACT_ROOT = "ttir-builder-artifacts"
DEFAULT_MESH = OrderedDict([("x", 1), ("y", 1)])
BUILDERS = {"ttir": TTIRBuilder, "ttnn": TTNNBuilder, "stablehlo": StableHLOBuilder}

__all__ = ["Operand", "Module", "Optional", "List", "OrderedDict", "torch", "build_module",
           "compile_ttir_to_flatbuffer", "compile_ttnn_to_flatbuffer", "compile_ttir_module_to_flatbuffer",
           "compile_and_execute_ttir", "compile_and_execute_ttnn", "execute_fb", "execute_py", "execute_cpp",
           "load_mlir_file", "split_mlir_file", "check_mlir_file", "ProgramCheck", "OpCheck", "TTIRBuilder", "TTNNBuilder", "StableHLOBuilder",
           "TTBuilderCompileException", "TTBuilderRuntimeException", "TTBuilderGoldenException", "BuilderError",
           "MeshShardDirection", "MeshShardType", "ReduceType",
           "generate_all_module_permutations", "get_optimal_module_least_num_collectives",
           "stablehlo_pipeline", "stablehlo_to_ttir_pipeline", "tt_populate_argument_types", "ttir_to_emitc_pipeline",
           "ttir_to_emitpy_pipeline", "ttir_to_ttmetal_backend_pipeline", "ttir_to_ttnn_backend_pipeline",
           "ttir_to_ttnn_runtime_pipeline"]
List = list


def _location(fn: Callable):
    try:
        return FileLineColLoc(StringAttr(inspect.getfile(fn)), IntAttr(inspect.getsourcelines(fn)[1]), IntAttr(0))
    except (OSError, TypeError):
        return UnknownLoc()


def build_module(mod: Callable, builder_type: Literal["ttir", "ttnn", "stablehlo"] = "ttir", mesh_name: str = "mesh",
                 mesh_dict: OrderedDict | None = None, save_artifacts: bool = False,
                 artifact_dir: str = ".") -> tuple[Module, Builder]:
    """Run `mod(builder)` and return the module it built and the builder (which holds the goldens)."""
    if builder_type not in BUILDERS:
        raise not_supported(f"the '{builder_type}' builder")
    builder = BUILDERS[builder_type](_location(mod), mesh_name, mesh_dict or DEFAULT_MESH, name=mod.__name__)
    mod(builder)
    module = Module(builder._module)
    if save_artifacts:
        _write(os.path.join(artifact_dir, f"{builder_type}_module.mlir"), str(module))
    return module, builder


def compile_ttir_module_to_flatbuffer(module: Module, builder: Builder,
                                      system_desc_path: str = "ttrt-artifacts/system_desc.ttsys",
                                      artifact_dir: str = ARTIFACT_ROOT, target: str = "ttnn",
                                      mesh_dict: OrderedDict | None = None, save_artifacts: bool = True,
                                      argument_types_string: Optional[str] = None,
                                      custom_pipeline: Union[Callable, str, None] = None,
                                      pipeline_options: Optional[list[str]] = None, print_ir=False,
                                      test_base: str | None = None, embed_goldens: bool = True):
    """Lower a built module to TTNN and serialize it, with its goldens unless `embed_goldens` is False.

    Returns `(compiled_bin, input_output_goldens, intermediate_goldens)`: the binary (a path-like
    `Binary` of the written `.ttnn`), goldens per program index (`input_N`/`output_N`) and per op location.
    """
    from ttmlir.asm import print_module
    from ttmlir.compiler import lower_to_ttnn
    from ttmlir.runtime.executor import Binary
    from ttmlir.target.ttnn import translate

    if target not in ("ttnn", "ttmetal", "emitpy", "emitc"):
        raise not_supported(f"target '{target}'")
    if custom_pipeline is not None or argument_types_string is not None:
        raise not_supported("custom pipelines and argument types")
    if target in ("emitpy", "emitc"):
        return _compile_to_emit(module, builder, target, system_desc_path, artifact_dir, save_artifacts or print_ir,
                                pipeline_options, test_base)
    if target == "ttmetal":
        return _compile_to_ttmetal(module, builder, system_desc_path, artifact_dir, save_artifacts or print_ir,
                                   pipeline_options, test_base)
    base = test_base or builder.name
    folder = os.path.join(artifact_dir, target)
    source = print_module(module.module_op, debuginfo=True)
    io, intermediates = builder.golden_maps()
    with _compile_errors():
        if builder.DIALECT == "ttir":
            lowered = lower_to_ttnn(source, f"{base}_ttir.mlir", _options(builder, system_desc_path, pipeline_options))
        else:
            lowered = builder.prepare_for_flatbuffer()
        data = translate(lowered, stages={builder.DIALECT: source},
                         goldens=_flatbuffer_goldens(builder) if embed_goldens else None)
    path = _save(folder, base, {builder.DIALECT: source, "ttnn": lowered}, f"{base}.ttnn", data,
                 save_artifacts or print_ir)
    return Binary(path, data), io, intermediates


def _compile_to_ttmetal(module: Module, builder: Builder, system_desc_path: str, artifact_dir: str,
                        save_artifacts: bool, pipeline_options: Optional[list[str]], test_base: str | None):
    """A TTIR module through the TTMetal pipeline to a `.ttm` (its path, the goldens as for `.ttnn`)."""
    from ttmlir.asm import print_module
    from ttmlir.compiler import lower_to_ttmetal
    from ttmlir.target.ttmetal import translate

    if builder.DIALECT != "ttir":
        raise not_supported(f"compiling a {builder.DIALECT} module to ttmetal")
    base, folder = test_base or builder.name, os.path.join(artifact_dir, "ttmetal")
    source = print_module(module.module_op, debuginfo=True)
    with _compile_errors():
        lowered = lower_to_ttmetal(source, f"{base}_ttir.mlir",
                                   _options(builder, system_desc_path, pipeline_options))
        data = translate(lowered, goldens=_flatbuffer_goldens(builder))
    path = _save(folder, base, {"ttir": source, "ttmetal": lowered}, f"{base}.ttm", data,
                 save_artifacts)
    io, intermediates = builder.golden_maps()
    return path, io, intermediates


def _compile_to_emit(module: Module, builder: Builder, target: str, system_desc_path: str, artifact_dir: str,
                     save_artifacts: bool, pipeline_options: Optional[list[str]], test_base: str | None):
    """A TTIR module as Python (`emitpy`: `<base>_ttnn.mlir.py`) or C++ (`emitc`: `<base>_ttnn.mlir.cpp`) over the
    ttnn API; returns its path and the goldens, as for a `.ttnn`."""
    from ttmlir.asm import print_module
    from ttmlir.compiler import lower

    if builder.DIALECT != "ttir":
        raise not_supported(f"compiling a {builder.DIALECT} module to {target}")
    base, folder = test_base or "test", os.path.join(artifact_dir, target)  # upstream's test_ttnn.mlir.py
    source = print_module(module.module_op, debuginfo=True)
    with _compile_errors():
        lowered = lower(source, f"{base}_ttir.mlir", f"ttir-to-{target}-pipeline",
                        _options(builder, system_desc_path, pipeline_options))
        if target == "emitpy":
            from ttmlir.target.python import translate_to_python
            code, suffix = translate_to_python(lowered), "py"
        else:
            from ttmlir.target.host_cpp import translate_to_cpp
            code, suffix = translate_to_cpp(lowered), "cpp"
    path = _save(folder, base, {"ttir": source, target: lowered}, f"{base}_ttnn.mlir.{suffix}", code,
                 save_artifacts)
    io, intermediates = builder.golden_maps()
    return path, io, intermediates


def _options(builder: Builder, system_desc_path: str, pipeline_options: Optional[list[str]]) -> str:
    """The pipeline's option string: the system descriptor when it exists, the builder's mesh, the caller's."""
    options = [f"system-desc-path={system_desc_path}" if os.path.exists(system_desc_path) else "",
               f"mesh-shape={builder.mesh_shape[0]}x{builder.mesh_shape[1]}", *(pipeline_options or [])]
    return " ".join(o for o in options if o)


@contextlib.contextmanager
def _compile_errors():
    """Compiler and translator diagnostics as the builder's compile exception (one line, no traceback)."""
    from ttmlir.diagnostics import DiagnosticError
    from ttmlir.target import TranslateError

    try:
        yield
    except DiagnosticError as error:
        raise TTBuilderCompileException(str(error)) from None
    except TranslateError as error:
        raise TTBuilderCompileException(f"ttmlir-translate: {error}") from None


def _save(folder: str, base: str, stages: dict, name: str, content, save_stages: bool) -> str:
    """Writes the compiled output `name` (and, when asked, each stage's IR, text or module, as
    `<base>_<stage>.mlir`); its path."""
    from ttmlir.asm import print_module

    if save_stages:
        for stage, ir in stages.items():
            _write(os.path.join(folder, f"{base}_{stage}.mlir"), ir if isinstance(ir, str) else print_module(ir))
    path = os.path.join(folder, name)
    _write(path, content)
    return path


def _flatbuffer_goldens(builder: Builder) -> dict:
    """Device-0 goldens as numpy arrays, per program name, keyed as the binary keys them."""
    return {func.sym_name.data: {key: _numpy(value[0]) for key, value in {**io, **ops}.items()}
            for func, io, ops in builder.program_goldens()}


def _numpy(tensor: torch.Tensor):
    return (tensor.float() if tensor.is_floating_point() else tensor.to(torch.int64)).numpy()


def _write(path: str, content) -> None:
    from ttmlir.cli import write_atomic

    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    write_atomic(path, content)


def compile_ttir_to_flatbuffer(fn: Callable, system_desc_path: str = "ttrt-artifacts/system_desc.ttsys",
                               artifact_dir: str = ARTIFACT_ROOT, target: str = "ttnn", mesh_name: str = "mesh",
                               mesh_dict: OrderedDict | None = None, save_artifacts: bool = True,
                               argument_types_string: Optional[str] = None, custom_pipeline=None,
                               pipeline_options: Optional[list[str]] = None, print_ir=False, test_base=None):
    """Build `fn` with a TTIRBuilder and compile it: `(builder, compiled_bin, io_goldens, intermediate_goldens)`."""
    return _build_and_compile("ttir", **locals())


def compile_ttnn_to_flatbuffer(fn: Callable, system_desc_path: str = "ttrt-artifacts/system_desc.ttsys",
                               artifact_dir: str = ARTIFACT_ROOT, target: str = "ttnn", mesh_name: str = "mesh",
                               mesh_dict: OrderedDict | None = None, save_artifacts: bool = True,
                               argument_types_string: Optional[str] = None, custom_pipeline=None,
                               pipeline_options: Optional[list[str]] = None, print_ir=False, test_base=None):
    """Build `fn` with a TTNNBuilder and serialize it: `(builder, compiled_bin, io_goldens, intermediate_goldens)`."""
    return _build_and_compile("ttnn", **locals())


def _build_and_compile(builder_type, fn, mesh_name, mesh_dict, **options):
    if options["target"] not in ("ttnn", "ttmetal", "emitpy", "emitc"):
        raise not_supported(f"target '{options['target']}'")
    try:
        module, builder = build_module(fn, builder_type, mesh_name=mesh_name, mesh_dict=mesh_dict)
    except BuilderError as error:
        raise TTBuilderCompileException(str(error)) from None
    return (builder, *compile_ttir_module_to_flatbuffer(module, builder, mesh_dict=mesh_dict, **options))


def compile_and_execute_ttir(fn: Callable, device=None, pcc: float = 0.99, atol: float = 1e-08,
                             rtol: float = 1e-05, disable_golden: bool = False, skip_exec: bool = False,
                             check_pcc: bool = True, check_atol: bool = False, check_rtol: bool = False,
                             enable_intermediate_verification: bool = False, builder_type: str = "ttir",
                             **compile_options) -> dict:
    """Build, compile and run `fn` on the simulated device; returns the golden report."""
    compile_fn = compile_ttnn_to_flatbuffer if builder_type == "ttnn" else compile_ttir_to_flatbuffer
    return _compile_and_execute(compile_fn, fn, device, skip_exec, compile_options,
                                pcc=pcc, atol=atol, rtol=rtol, disable_golden=disable_golden, check_pcc=check_pcc,
                                check_atol=check_atol, check_rtol=check_rtol,
                                enable_intermediate_verification=enable_intermediate_verification)


def compile_and_execute_ttnn(fn: Callable, device=None, **options) -> dict:
    """`compile_and_execute_ttir` for a TTNNBuilder function (the same options)."""
    return compile_and_execute_ttir(fn, device, builder_type="ttnn", **options)


def _compile_and_execute(compile_fn, fn, device, skip_exec, compile_options, **checks) -> dict:
    builder, compiled_bin, io, intermediates = compile_fn(fn, **compile_options)
    if skip_exec:
        raise TTBuilderRuntimeException("Manually skipped execution")
    target = compile_options.get("target", "ttnn")
    if target in ("emitpy", "emitc"):
        if checks.pop("enable_intermediate_verification"):
            raise not_supported(f"intermediate verification of {target} output (generated code has no goldens)")
        run = execute_py if target == "emitpy" else execute_cpp
        return run(compiled_bin, io, device=device, **checks)
    return execute_fb(compiled_bin, io, intermediates, device=device, bypass_ops=builder._bypass_ops, **checks)


# --- existing .mlir files ------------------------------------------------------------------------

def load_mlir_file(mlir_text: str, golden_inputs: dict | None = None, target: str = "ttir",
                   mesh_dict: OrderedDict | None = None, filename: str = "<mlir>") -> tuple[Module, Builder]:
    """Parse a TTIR module and compute the goldens of every op from random (or `golden_inputs`) inputs.
    An op written without a location gets its place in the text (`loc("<mlir>":3:10)`), as MLIR's parser
    gives it, so every op's golden has a key of its own."""
    from ttmlir.diagnostics import DiagnosticError, load_module
    from ttmlir.dialects import make_context

    if target not in BUILDERS:
        raise not_supported(f"loading '{target}' modules")
    try:
        module_op, positions = load_module(make_context(), mlir_text, filename)
    except DiagnosticError as error:
        raise TTBuilderCompileException(str(error)) from None
    _locate(positions, mlir_text, filename)
    mesh_name, declared = _declared_mesh(module_op)
    builder = BUILDERS[target](module_op.location, mesh_name, mesh_dict or declared, module=module_op, name="loaded")
    for func in builder.functions():
        if is_private(func):
            continue
        args = func.body.block.args
        given = (golden_inputs or {}).get(func.sym_name.data)
        if given is not None and len(given) != len(args):
            raise BuilderError(f"@{func.sym_name.data} takes {len(args)} inputs, golden_inputs gives {len(given)}")
        kinds = [_argument_type(func, i) for i in range(len(args))]
        builder._evaluate_block(func.body.block, [builder.input_golden(a.type, given[i] if given else _random_input(a, kind))
                                                  for i, (a, kind) in enumerate(zip(args, kinds))])
    return Module(module_op), builder


def _declared_mesh(module_op) -> tuple[str, OrderedDict]:
    """The mesh a module declares, its name and its axes as a builder's mesh_dict: its first `sdy.mesh`, else its
    `ttcore.meshes`, else one chip."""
    from ttmlir.dialects import sdy
    from ttmlir.transforms.ttcore.register_device import declared_mesh

    mesh_op = next((op for op in module_op.body.block.ops if isinstance(op, sdy.MeshOp)), None)
    if mesh_op is not None:
        return mesh_op.sym_name.data, OrderedDict(mesh_op.mesh.data.axes)
    shape = declared_mesh(module_op)
    return "mesh", OrderedDict(zip(("x", "y"), shape)) if shape is not None and len(shape) == 2 else DEFAULT_MESH


def _index_bound(value) -> int | None:
    """How large the values of an integer tensor may be: the smallest size of what its users index with it."""
    bounds = []
    for use in value.uses:
        op = use.operation
        name = op.ROW.name if isinstance(op, TTOp) else None
        if name in PASSES_VALUES and op.results:
            bounds.append(_index_bound(op.results[0]))
        elif name in INDEX_OPERANDS:
            groups = op.operand_groups()
            bounds += [size(groups[indexed][0].type.get_shape())
                       for index, indexed, size in INDEX_OPERANDS[name] if value in groups[index]]
    return min((b for b in bounds if b), default=None)


def _argument_type(func, index: int) -> str | None:
    """An argument's `ttcore.argument_type` (input, parameter, constant), if the exporter wrote one."""
    from ttmlir.dialects.ttcore import ArgumentTypeAttr

    attrs = func.arg_attrs.data[index].data if func.arg_attrs is not None else {}
    kind = attrs.get(ArgumentTypeAttr.name)
    return kind.data.value if kind is not None else None


def _random_input(arg, kind: str | None) -> torch.Tensor | None:
    """A random input an exported graph can take (None: the builder's default, normal or small integers).
    Integers used as indices stay within what they index; a float `constant` argument is drawn from [0, 1),
    as exporters pass scale factors and epsilons this way (a normal draw would make a variance negative); a
    weight `parameter` (two or more dimensions over one) as torch initializes a layer, uniform in
    ±1/sqrt(fan_in), fan_in its size over the first dimension: a deep graph's activations then keep their
    scale instead of overflowing bf16 after a few dozen layers of unit-variance weights."""
    dtype, shape = torch_dtype(arg.type.element_type), tuple(arg.type.get_shape())
    if dtype.is_floating_point and kind == "constant":
        return torch.rand(shape).to(dtype)
    if dtype.is_floating_point and kind == "parameter" and sum(d > 1 for d in shape) >= 2:
        bound = 1 / math.sqrt(math.prod(shape[1:]))
        return ((torch.rand(shape) * 2 - 1) * bound).to(dtype)
    if dtype.is_floating_point:
        return None
    bound = _index_bound(arg)
    return None if bound is None or dtype == torch.bool else torch.randint(0, bound, shape).to(dtype)


def _locate(positions: dict, text: str, filename: str) -> None:
    line_starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    for op, offset in positions.items():
        if isinstance(op.location, UnknownLoc):
            line = bisect.bisect_right(line_starts, offset)
            op.location = FileLineColLoc(StringAttr(filename), IntAttr(line), IntAttr(offset - line_starts[line - 1] + 1))


def split_mlir_file(module: Module, builder: Builder) -> list[tuple[Module, Builder]]:
    """One module per op of every public function: the op alone, fed with its original input goldens and
    keeping its original output goldens."""
    pieces = []
    for func in builder.functions():
        if is_private(func):
            continue
        for op in [op for op in func.body.block.ops if isinstance(op, TTOp)]:
            short = op.name.split(".")[1]
            piece = type(builder)(builder._location, builder._mesh_name, builder._mesh_dict,
                                  name=f"{func.sym_name.data}_{short}")

            def alone(*args, op=op, piece=piece):
                clone = op.clone()
                for i, value in enumerate(args[:-1]):
                    clone.operands[i] = value
                piece._insert(clone)
                piece._overrides.update({new: builder._goldens[old] for old, new in zip(op.results, clone.results)})
                return list(clone.results)

            alone.__name__ = f"{short}_module"
            piece._build_function(alone, [v.type for v in op.operands], [builder._goldens[v] for v in op.operands],
                                  private=False)
            piece._reevaluate()
            pieces.append((Module(piece._module), piece))
    return pieces


# --- the golden check of an existing .mlir file ---------------------------------------------------

@dataclass
class OpCheck:
    """One TTIR op's value on the device compared with its TTIR golden (None: the run never produced it)."""
    loc: str
    op: str
    metrics: dict | None

    @property
    def pcc(self) -> float | None:
        return None if self.metrics is None else self.metrics["actual_pcc"]


@dataclass
class ProgramCheck:
    name: str
    outputs: dict[str, dict]
    ops: list[OpCheck]
    pcc: float

    @property
    def passed(self) -> bool:
        return all(_passes(m, self.pcc) for m in self.outputs.values())

    @property
    def first_divergence(self) -> OpCheck | None:
        """The first op, in program order, whose value misses the PCC threshold."""
        return next((c for c in self.ops if c.metrics is not None and not _passes(c.metrics, self.pcc)), None)


def _passes(metrics: dict, pcc: float) -> bool:
    return "error" not in metrics and metrics["actual_pcc"] >= pcc


def check_mlir_file(mlir_text: str, pcc: float = 0.99, seed: int = 0, golden_inputs: dict | None = None,
                    mesh_dict: OrderedDict | None = None, device=None,
                    pipeline_options: Optional[list[str]] = None, filename: str = "<mlir>") -> list[ProgramCheck]:
    """The TTIR-level golden check of a whole module: goldens of every op from the TTIR semantics (random
    inputs from `seed`, or `golden_inputs` per function name), the module compiled to TTNN and run on the
    simulated device, every output and every TTIR op's value compared. One ProgramCheck per public function."""
    from ttmlir.target.ttnn import ProgramWriter
    from ttrt.runtime import DeviceRuntime, get_current_device_runtime, set_current_device_runtime

    torch.manual_seed(seed)
    module, builder = load_mlir_file(mlir_text, golden_inputs, mesh_dict=mesh_dict, filename=filename)
    with tempfile.TemporaryDirectory() as scratch:  # the check leaves no artifacts behind
        compiled, io, intermediates = compile_ttir_module_to_flatbuffer(module, builder, artifact_dir=scratch,
                                                                        save_artifacts=False, mesh_dict=mesh_dict,
                                                                        embed_goldens=False,
                                                                        pipeline_options=pipeline_options)
    if get_current_device_runtime() == DeviceRuntime.Disabled:
        set_current_device_runtime(DeviceRuntime.TTNN)
    report, _ = run_and_compare(compiled, io, intermediates, pcc, 1e-08, 1e-05, False, device,
                                {"pcc": False, "atol": False, "rtol": False}, True)
    checks = []
    for index, (func, _, op_goldens) in enumerate(builder.program_goldens()):
        entry = report.get(f"program_index_{index}")
        if entry is None:
            continue
        seen: dict[str, OpCheck] = {}
        for op in func.body.block.ops:
            loc = ProgramWriter.loc(op)
            if isinstance(op, TTOp) and op.results and loc in op_goldens and loc not in seen:
                seen[loc] = OpCheck(loc, op.name, entry.get(loc))
        outputs = {k: v for k, v in entry.items() if k.startswith("output_")}
        checks.append(ProgramCheck(func.sym_name.data, outputs, list(seen.values()), pcc))
    return checks
